// Merchants of the Dark Road: a placeholder until its own table is written (the kingdom
// board, the wagon, the caravan: a later issue). Meanwhile the shell's generic table
// makes it playable: every legal command is a button (data-testid=legal-action with its
// data-type), a click sends it, and the view's version is shown.
import { mount as genericMount } from "../../generic.js";

export function mount(shell, root, content) {
  return genericMount(shell, root, content, {
    title: "Merchants of the Dark Road",
    note: "The full table is on its way. For now, every move the rules allow is a button.",
  });
}
