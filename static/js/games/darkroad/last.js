import { LastMarks } from "../../kit.js";

// The last thing done on the board, outlined in the seat's colour until the next: a wagon
// that moved (its space) or a district, building or deck acted on (its target).
const TARGETS = { bought: "bazaar", sold: "inn", caravan: "excursions", ruins: "excursions", dark_market: "dark_market" };

export class LastAction {
  constructor() {
    this.last = null;
    this.positions = null; // each seat's space in the view before
    this.marks = new LastMarks(); // the outline by version (a take-back returns to one)
  }

  /** Read a view and the events that led to it (none: a view read again, nothing new). */
  update(view, events) {
    this.last = this.marks.after(view, events, () => {
      if (events) {
        // A wagon that moved (the `moved` event may not reach every seat).
        const before = this.positions;
        for (const p of view.players) {
          if (before && before[p.seat] !== undefined && before[p.seat] !== p.position) this.last = { seat: p.seat, space: p.position };
        }
        for (const e of events) this.onEvent(e);
      }
      return this.last;
    });
    this.positions = Object.fromEntries(view.players.map((p) => [p.seat, p.position]));
    return this.last;
  }

  onEvent(e) {
    const last = this.last;
    if (e.type === "moved") this.last = { seat: e.seat, space: e.space ?? e.to };
    else if (e.type === "activated") this.last = { seat: e.seat, target: e.target };
    else if (TARGETS[e.type] && e.seat !== undefined) this.last = { seat: e.seat, target: TARGETS[e.type] };
    else if (e.type === "commission" && last?.target === undefined && last?.seat === e.seat) this.last = { seat: e.seat, target: "commissions" };
  }
}
