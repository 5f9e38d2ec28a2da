// Karanor's goods: the seven resources, and trade bundles (gold, resources, partners,
// badges, artifacts) as icons and as words (through the catalogue: "2 wood", "1 diamond").
import { amount, h, icon } from "../../util.js";
import { t, tn } from "../../i18n.js";

export const RESOURCES = ["wood", "ore", "cloth", "wine", "meat", "fruit", "diamond"];

/** A good's name alone ("wood", "diamond"), for labels. */
export function goodName(r) {
  switch (r) {
    case "gold": return t("gold");
    case "wood": return t("wood");
    case "ore": return t("ore");
    case "cloth": return t("cloth");
    case "wine": return t("wine");
    case "meat": return t("meat");
    case "fruit": return t("fruit");
    case "diamond": return t("diamond");
    case "prestige": return t("prestige");
    default: return r;
  }
}

/** An amount of a good in words, with the language's plural: "2 wood", "1 diamond". */
export function goodWords(n, r) {
  switch (r) {
    case "gold": return tn("{n} gold", "{n} gold", n);
    case "wood": return tn("{n} wood", "{n} wood", n);
    case "ore": return tn("{n} ore", "{n} ore", n);
    case "cloth": return tn("{n} cloth", "{n} cloth", n);
    case "wine": return tn("{n} wine", "{n} wine", n);
    case "meat": return tn("{n} meat", "{n} meat", n);
    case "fruit": return tn("{n} fruit", "{n} fruit", n);
    case "diamond": return tn("{n} diamond", "{n} diamonds", n);
    case "prestige": return tn("{n} prestige", "{n} prestige", n);
    default: return `${n} ${r}`;
  }
}

/** "the wood partner". */
export function partnerWords(r) {
  return t("the {resource} partner", { resource: goodName(r) });
}

/** "a, b and c" in the page's language. */
export function joinAnd(list) {
  if (!list.length) return "";
  let text = list[0];
  for (let i = 1; i < list.length; i += 1) {
    text = i < list.length - 1 ? t("{first}, {second}", { first: text, second: list[i] })
      : t("{first} and {second}", { first: text, second: list[i] });
  }
  return text;
}

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
    out.push(h("span", { class: "chip partner" }, icon("partner", t("partner")), icon(p, goodName(p)),
      t("{resource} partner", { resource: goodName(p) })));
  }
  for (const b of bundle.badges || []) {
    out.push(h("span", { class: "chip badge" }, icon("badge", t("badge")), badge(b)));
  }
  for (const a of bundle.artifacts || []) {
    out.push(h("span", { class: "chip artifact" }, icon("artifact", t("artifact")), artifact(a)));
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
  if (!bundle) return t("nothing");
  if (bundle.gold) parts.push(goodWords(bundle.gold, "gold"));
  for (const r of RESOURCES) {
    const n = bundle.resources?.[r];
    if (n) parts.push(goodWords(n, r));
  }
  for (const p of bundle.partners || []) parts.push(partnerWords(p));
  for (const b of bundle.badges || []) parts.push(t("a {badge} badge", { badge: names?.badge?.(b) ?? b }));
  for (const a of bundle.artifacts || []) parts.push(t("the artifact {artifact}", { artifact: names?.card?.("artifacts", a) ?? a }));
  if (!parts.length) return t("nothing");
  return joinAnd(parts);
}
