// Renders every event of recorded games into the log's sentences, through the game's
// own words.js and static/js/i18n.js, as the browser does (tests/i18n/test_french_everywhere.py).
// stdin: {game, lang, messages, content, steps: [{view, events}]}; stdout: [[sentence, ...], ...]
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { resolve } from "node:path";

const input = JSON.parse(readFileSync(0, "utf8"));
globalThis.document = { documentElement: { lang: input.lang } };
const root = resolve(import.meta.dirname, "..", "..", "static", "js");
const i18n = await import(pathToFileURL(resolve(root, "i18n.js")).href);
i18n.addMessages(input.messages);
const { Words } = await import(pathToFileURL(resolve(root, "games", input.game, "words.js")).href);
const words = new Words(input.content);
const out = [];
for (const step of input.steps) {
  words.setView(step.view);
  const lines = [];
  for (const e of step.events) {
    const text = words.sentence ? words.sentence(e) : words.event(e);
    if (text) lines.push(String(text));
  }
  for (const cmd of step.commands || []) lines.push(String(words.command(cmd, step.view)));
  out.push(lines);
}
process.stdout.write(JSON.stringify(out));
