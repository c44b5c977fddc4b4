// The rules reference (规则速查): the chosen rule set's items, what each excludes and the house options,
// drawn from GET /rules in the page's language — the data docs/rules/*.md are made from. Opened by its
// button, or at one item's entry by tapping that item in a scored hand's breakdown. Uses page.js's
// helpers (state, t, el, $, call, UNITS); its words are in page.js's WORDS, where the Chinese sweep reads them.
"use strict";

// The rules answer in each language, asked once: the language toggle asks for the other one.
const rulesRefData = {};
// The answer's English `scope` is the scope's code (stable for clients); the rules pages say it in words.
const SCOPE_WORDS_EN = {
  base: "every player", "non-winner": "non-winners", bonus: "the winner", declared: "a declared win", winner: "the winner",
};

async function rulesRefAnswer() {
  const lang = state.lang;
  if (!rulesRefData[lang]) {
    const reply = await call("GET", "rules");
    if (!reply.ok) return null;
    rulesRefData[lang] = reply.data;
  }
  return rulesRefData[lang];
}

function rulesRefEntryId(index) { return `ref-item-${index}`; }

function rulesRefColon() { return state.lang === "zh" ? "：" : ": "; }

function rulesRefName(item) { return state.lang === "zh" ? item.name : `${item.name} ${item.name_en}`; }

// A button that opens the entry of another item (what an exclusion names), so a reader can follow it.
function rulesRefLink(info, key) {
  const index = info.items.findIndex((i) => i.key === key);
  if (index < 0) return el("code", { text: key });
  const button = el("button", { type: "button", class: "ref-link", text: rulesRefName(info.items[index]) });
  button.addEventListener("click", () => showRulesRefEntry(index));
  return button;
}

// What one exclusion says about `key`: the items it removes (or, if `key` is removed, what removes it), each
// a link; a rule over a class of items (riichi's "any yakuman") is said by its own line, not a list of keys.
function rulesRefExclusion(info, index, key, rulesShown) {
  const keys = info.exclusion_keys[index];
  const general = keys.present.length > 1;
  const side = keys.present.includes(key) ? "excludes" : keys.removes.includes(key) ? "excludedBy" : null;
  if (!side) return null;
  const line = el("div", { class: "ref-exclusion" });
  if (general) line.append(el("span", { text: info.exclusions[index] }));  // says both sides itself
  else {
    const named = side === "excludes" ? keys.removes : keys.present;
    line.append(el("span", { class: "ref-side", text: `${t(side === "excludes" ? "refExcludes" : "refExcludedBy")}${rulesRefColon()}` }),
      ...named.map((k) => rulesRefLink(info, k)));
  }
  const rule = info.exclusion_rules[index];
  if (!rulesShown.has(rule)) {  // two exclusions of one rule (riichi's 大三元) show its sentence once
    rulesShown.add(rule);
    line.append(el("p", { class: "ref-rule" }, el("span", { class: "ref-side", text: `${t("refRule")}${rulesRefColon()}` }), rule));
  }
  return line;
}

function rulesRefUnit(unit) { return state.lang === "zh" ? (UNITS.zh[unit] ?? unit) : unit; }

function rulesRefItem(info, item, index) {
  const headingId = `${rulesRefEntryId(index)}-name`;
  const heading = el("h4", { id: headingId }, el("span", { class: "zh", text: item.name }),
    state.lang === "zh" ? null : el("span", { class: "en", text: ` ${item.name_en}` }));
  const scope = state.lang === "zh" ? item.scope : (SCOPE_WORDS_EN[item.scope] ?? item.scope);
  const facts = el("dl", {},
    el("dt", { text: t("refValue") }), el("dd", { class: "ref-value", text: item.value }),
    el("dt", { text: t("refUnit") }), el("dd", { text: rulesRefUnit(item.unit) }),
    el("dt", { text: t("refFor") }), el("dd", { text: scope }));
  const rulesShown = new Set();
  const exclusions = info.exclusion_keys.map((_, i) => rulesRefExclusion(info, i, item.key, rulesShown)).filter(Boolean);
  return el("li", {}, el("article", { id: rulesRefEntryId(index), class: "ref-item", tabIndex: -1,
    "aria-labelledby": headingId, "data-key": item.key },
  heading, state.lang === "zh" ? null : el("code", { class: "ref-key", text: item.key }), facts, ...exclusions));
}

// An option's Chinese name opens its Chinese description ("翻倍线：…"): in Chinese it heads the entry.
function rulesRefOption(option, index) {
  const headingId = `ref-option-${index}-name`;
  const [chinese, rest] = option.description.includes("：") ? option.description.split(/：(.*)/s) : ["", option.description];
  const zh = state.lang === "zh" && chinese;
  const others = option.alternatives.filter((v) => v !== option.default);
  return el("li", {}, el("article", { class: "ref-option", "aria-labelledby": headingId, "data-option": option.name },
    el("h4", { id: headingId }, zh ? `${chinese} ` : "", el("code", { text: option.name })),
    el("dl", {},
      el("dt", { text: t("refDefault") }), el("dd", { text: String(option.default) }),
      el("dt", { text: t("refAlternatives") }), el("dd", { text: others.length ? others.join(state.lang === "zh" ? "、" : ", ") : t("none") }),
      el("dt", { text: t("refMeaning") }), el("dd", { text: zh ? rest : option.description }))));
}

async function drawRulesRef(rules) {
  const body = $("rulesref-body");
  const answer = await rulesRefAnswer();
  const info = answer && (answer.find((r) => r.name === rules) || answer[0]);
  if (!info) { body.replaceChildren(el("p", { class: "error", text: t("offline") })); return null; }
  const title = state.lang === "zh" ? `${info.chinese} ${info.name}` : `${info.name[0].toUpperCase()}${info.name.slice(1)} ${info.chinese}`;
  body.replaceChildren(
    el("p", { class: "meta", text: `${title} · ${t("refUnit")}${rulesRefColon()}${rulesRefUnit(info.unit)}` }),
    el("p", { class: "hint", text: t("refHint") }),
    el("h3", { id: "ref-items-heading", text: t("refItems") }),
    el("ul", { class: "ref-list", "aria-labelledby": "ref-items-heading" }, ...info.items.map((item, i) => rulesRefItem(info, item, i))),
    el("h3", { id: "ref-options-heading", text: t("options") }),
    info.options.length
      ? el("ul", { class: "ref-list", "aria-labelledby": "ref-options-heading" }, ...info.options.map(rulesRefOption))
      : el("p", { text: t("refNoOptions") }));
  return info;
}

// Marks one entry as the one asked for, scrolls it into view and moves the focus to it.
function showRulesRefEntry(index) {
  for (const entry of document.querySelectorAll("#rulesref-body .ref-item[aria-current]")) entry.removeAttribute("aria-current");
  const entry = $(rulesRefEntryId(index));
  if (!entry) return;
  entry.setAttribute("aria-current", "true");
  entry.scrollIntoView({ block: "start" });
  entry.focus({ preventScroll: true });
}

// Opens the reference of `rules`; with `item` (a scored line), at that item's entry: the one of its key and
// English name (a key may name two entries, as Lingxi's 花胡 won and declared), else the first of its key.
async function openRulesRef(rules, item) {
  const dialog = $("rulesref");
  const info = await drawRulesRef(rules);
  if (!dialog.open) dialog.showModal();
  if (!info || !item) { $("rulesref-body").scrollTop = 0; dialog.scrollTop = 0; return; }
  let index = info.items.findIndex((i) => i.key === item.key && i.name_en === item.name_en);
  if (index < 0) index = info.items.findIndex((i) => i.key === item.key);
  if (index >= 0) showRulesRefEntry(index);
}

// A line of a scored hand's breakdown as a button that opens the reference at its item.
function rulesRefButton(rules, item, ...children) {
  const button = el("button", { type: "button", class: "item-ref", "data-key": item.key }, ...children);
  button.addEventListener("click", () => openRulesRef(rules, item));
  return button;
}

function setupRulesRef() {
  $("rulesref-open").addEventListener("click", () => openRulesRef($("rules").value, null));
  $("rulesref-close").addEventListener("click", () => $("rulesref").close());
}

document.addEventListener("DOMContentLoaded", setupRulesRef);
