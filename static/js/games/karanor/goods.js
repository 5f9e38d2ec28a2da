// Karanor's goods: the seven resources, and trade bundles (gold, resources, partners,
// badges, artifacts) as icons and as words.
import { amount, h, icon } from "../../util.js";

export const RESOURCES = ["wood", "ore", "cloth", "wine", "meat", "fruit", "diamond"];

/**
 * Icons for a trade bundle: gold, resources, partners, badges, artifacts.
 * `names` (a Words) turns badge and artifact ids into their names when given.
 */
export function bundleNodes(bundle, names) {
  const out = [];
  if (!bundle) return out;
  const badge = (id) => names?.badge?.(id) ?? id;
  const artifact = (id) => names?.card?.("artifacts", id) ?? id;
  if (bundle.gold) out.push(amount(bundle.gold, "gold"));
  for (const r of RESOURCES) {
    const n = bundle.resources?.[r];
    if (n) out.push(amount(n, r));
  }
  for (const p of bundle.partners || []) {
    out.push(h("span", { class: "chip partner" }, icon("partner", "partner"), icon(p), `${p} partner`));
  }
  for (const b of bundle.badges || []) {
    out.push(h("span", { class: "chip badge" }, icon("badge", "badge"), badge(b)));
  }
  for (const a of bundle.artifacts || []) {
    out.push(h("span", { class: "chip artifact" }, icon("artifact", "artifact"), artifact(a)));
  }
  return out;
}

export function bundleEmpty(bundle) {
  if (!bundle) return true;
  return !(bundle.gold || Object.values(bundle.resources || {}).some((n) => n)
    || bundle.partners?.length || bundle.badges?.length || bundle.artifacts?.length);
}

export function bundleWords(bundle, names) {
  const parts = [];
  if (!bundle) return "nothing";
  if (bundle.gold) parts.push(`${bundle.gold} gold`);
  for (const r of RESOURCES) {
    const n = bundle.resources?.[r];
    if (n) parts.push(`${n} ${r}`);
  }
  for (const p of bundle.partners || []) parts.push(`the ${p} partner`);
  for (const b of bundle.badges || []) parts.push(`a ${names?.badge?.(b) ?? b} badge`);
  for (const a of bundle.artifacts || []) parts.push(`the artifact ${names?.card?.("artifacts", a) ?? a}`);
  if (!parts.length) return "nothing";
  return parts.length === 1 ? parts[0] : `${parts.slice(0, -1).join(", ")} and ${parts[parts.length - 1]}`;
}

