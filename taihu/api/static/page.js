// The table page: score a hand, settle a deal, share a link. Plain JavaScript, no build step, and
// no request outside the server that served it (a table may have no internet).
"use strict";

// -- words ---------------------------------------------------------------------------------------
// Each key: [English, Chinese], so no word can be missing in one language. The Chinese labels of the
// main controls keep their English word, so a control has the same accessible name ("Score", "Hand",
// "Rules"…) in both languages.
const WORDS = {
  title: ["taihu", "台胡 taihu"],
  scoreHeading: ["Score a hand", "算一手牌"],
  rules: ["Rules", "规则 Rules"],
  hand: ["Hand", "手牌 Hand"],
  modesLabel: ["Next tiles go to:", "接下来的牌放到："],
  modeWin: ["Winning tile +", "胡张 +"],
  modeExposed: ["Exposed meld [ ]", "明牌 [ ]"],
  modeConcealed: ["Concealed kong ( )", "暗杠 ( )"],
  modeWild: ["Wildcard wild:", "财神 wild:"],
  modeJin: ["Wildcard (金) wild:", "金 wild:"], // where the wildcard is called 金 (palette.json's wild_name)
  modeFlip: ["Flipped tile flip:", "翻牌 flip:"],
  undo: ["Undo", "撤销 Undo"],
  clear: ["Clear", "清空 Clear"],
  conditionsLabel: ["How it was won", "怎么胡的"],
  seat: ["Seat", "门风 Seat"],
  declare: ["Declared win", "报胡"],
  none: ["none", "无"],
  options: ["House options", "规则选项"],
  score: ["Score", "计分 Score"],
  waits: ["Waits", "听什么 Waits"],
  copy: ["Copy link", "复制链接 Copy link"],
  link: ["Link", "链接 Link"],
  copied: ["Copied.", "已复制。"],
  copyByHand: ["Copy the link above.", "请复制上面的链接。"],
  settleHeading: ["Settle a deal", "结算一局"],
  settleHint: ["Each seat: a hand, or just its total (e.g. 4); empty counts 0.", "每家：填牌，或只填台数（如 4）；空着算 0。"],
  dealerLabel: ["Dealer", "庄家 Dealer"],
  tableWild: ["Wildcards", "财神 Wildcards"],
  tableFlip: ["Flip", "翻牌 Flip"],
  winner: ["Winner", "胡牌 Winner"],
  discarder: ["Discarder", "放炮 Discarder"],
  drawn: ["nobody (drawn)", "无人（流局）"],
  selfDrawn: ["nobody (self-drawn)", "无人（自摸）"],
  events: ["Events", "事件"],
  addEvent: ["Add event", "加事件"],
  removeEvent: ["Remove event", "删除事件"],
  eventType: ["Event type", "事件类型"],
  eventSeat: ["Event by", "谁"],
  optionsShared: ["House options: as set above.", "规则选项：同上。"],
  settle: ["Settle", "结算 Settle"],
  ledgerHeading: ["Ledger of the evening", "今晚的账 Ledger"],
  docs: ["API docs", "接口文档"],
  total: ["Total", "合计"],
  arithmetic: ["Arithmetic", "算式 Arithmetic"],
  notLegal: ["Not a legal win", "不算合法的胡"],
  nonWinner: ["Not a winning hand: what it counts for settlement.", "没有胡：这是结算用的台数。"],
  arrangement: ["Arrangement", "牌型"],
  readAs: ["Read as", "读作"],
  notes: ["Notes", "说明"],
  payments: ["Payments", "付款 Payments"],
  nets: ["Nets", "输赢 Nets"],
  from: ["From", "付"],
  to: ["To", "收"],
  amount: ["Amount", "数目"],
  reason: ["Reason", "原因"],
  seatCol: ["Seat", "座位"],
  net: ["Net", "输赢"],
  nextDealer: ["Next dealer", "下一庄"],
  noPayments: ["No payments.", "无人付款。"],
  dealer: ["dealer", "庄"],
  place: ["Here:", "出错的地方："],
  waitsNone: ["Not ready: no tile wins.", "没听牌。"],
  waitsTile: ["Tile", "牌"],
  waitsDiscard: ["On a discard", "点炮"],
  waitsSelf: ["Self-drawn", "自摸"],
  waitsDiscardFirst: ["Discard", "打出"],
  unseen: ["unseen", "未见"],
  cannot: ["—", "—"],
  notLegalShort: ["not legal", "不合法"],
  offline: ["The server does not answer", "服务器没有回应"],
  putAt: ["Use this hand at the table, seat:", "把这手牌填到结算的座位："],
  putAtSeat: ["Put this hand at seat", "填到座位"],
  ledgerHint: ["Each deal settled above goes in with the seats as they stand; the ledger rotates the dealer.", "上面结算的每一局按现在的座位记上；账本自己轮庄。"],
  ledgerAdd: ["Add deal", "记这一局 Add deal"],
  ledgerUndo: ["Undo last deal", "撤销上一局 Undo last deal"],
  ledgerCsv: ["Download CSV", "下载 CSV Download CSV"],
  ledgerRefresh: ["Refresh", "刷新 Refresh"],
  ledgerCopy: ["Copy ledger link", "复制账的链接 Copy ledger link"],
  ledgerMine: ["Back to my ledger", "回到我的账 Back to my ledger"],
  ledgerShare: ["Read-only link for the table (no edit token in it):", "给牌桌的只读链接（不含编辑口令）："],
  ledgerCopied: ["On the clipboard.", "已复制到剪贴板。"],
  ledgerCopyByHand: ["Copy the read-only link above.", "请复制上面的只读链接。"],
  ledgerNewHeading: ["Start a ledger", "开一本新账"],
  ledgerNewHint: ["Four players in table order (the first deals first); the rules and house options as chosen above.", "四家按座次填（第一家先坐庄）；规则和规则选项用上面选的。"],
  player1: ["Player 1", "第一家 Player 1"],
  player2: ["Player 2", "第二家 Player 2"],
  player3: ["Player 3", "第三家 Player 3"],
  player4: ["Player 4", "第四家 Player 4"],
  ledgerNew: ["New ledger", "开新账 New ledger"],
  ledgerDeals: ["Deals", "各局"],
  dealCol: ["Deal", "局"],
  dealt: ["{name} deals", "{name} 坐庄"],
  ledgerTotal: ["Total", "合计 Total"],
  nextToDeal: ["Next to deal", "下一局庄家"],
  trend: ["Running totals", "累计走势 Running totals"],
  trendDesc: ["Each player's running total after each of {n} deals. After the last: {totals}.",
    "每位玩家在 {n} 局中每局之后的累计分数。最后：{totals}。"],
  trendDeal: ["deal", "局"],
  dealsCount: ["deals", "局"],
  noDeals: ["No deals yet.", "还没有记局。"],
  wonOn: ["{w} won on {d}'s discard", "{w} 胡，{d} 放炮"],
  wonSelf: ["{w} won self-drawn", "{w} 自摸"],
  falseWin: ["false win by {x}", "{x} 诈胡"],
  drawnDeal: ["drawn", "流局"],
  added: ["Deal {n} added: {result}.", "第 {n} 局已记上：{result}。"],
  removed: ["Deal {n} removed: {result}.", "第 {n} 局已撤销：{result}。"],
  readOnly: ["Read-only: this browser does not have the edit token of this ledger.", "只读：这个浏览器没有这本账的编辑口令。"],
  noToken: ["Nothing changed: this ledger is read-only here: you don't have its edit token.", "没有改动：这本账在这里是只读的，你没有它的编辑口令。"],
  wrongDealer: ["Nothing sent: the ledger says {name} deals this deal (place {place}); the Dealer is now set to {place}. Check the seats and press Add deal again.", "没有发送：账本说这一局 {name} 坐庄（座位 {place}）；庄家已改成 {place}。请核对座位，再按“记这一局”。"],
  ledgerGone: ["Start a new ledger below.", "请在下面开一本新账。"],
  // the rules reference (reference.js)
  rulesRef: ["Rules", "规则速查 Rules"],
  rulesRefHeading: ["Rules reference", "规则速查 Rules reference"],
  close: ["Close", "关闭 Close"],
  refHint: ["Tap an item of a scored hand to open its entry here.", "点一下算出的某一项，就在这里打开它的条目。"],
  refItems: ["Items", "计分项"],
  refValue: ["Value", "分值"],
  refUnit: ["Unit", "单位"],
  refFor: ["Counts for", "计给"],
  refExcludes: ["Excludes", "不再计"],
  refExcludedBy: ["Excluded by", "有以下时不计"],
  refRule: ["The rule", "规则原文"],
  refDefault: ["Default", "默认"],
  refAlternatives: ["Alternatives", "可选"],
  refMeaning: ["Meaning", "说明"],
  refNoOptions: ["No house options.", "没有规则选项。"],
  // who sits where this deal
  placeN: ["Place {n}", "第 {n} 家"],
  // Putian's headline: what the winner is paid
  winnerPaid: ["The winner is paid", "和牌的人收"],
  basePoints: ["Base", "底分"],
  // undo asks first
  undoAsk: ["Undo deal {n} ({result})?", "撤销第 {n} 局（{result}）？"],
  undoConfirm: ["Undo it", "撤销 Undo it"],
  undoCancel: ["Keep it", "保留 Keep it"],
  undoStale: ["Nothing removed: deal {n} is no longer the last one (another phone changed the ledger); the ledger is shown as it is now.",
    "没有撤销：第 {n} 局已经不是最后一局（别的手机改了账）；现在显示的是账本的最新样子。"],
  // the room: invites, joining, the phones that record
  roomInvite: ["Invite", "邀请 Invite"],
  roomJoinHint: ["Another phone scans this code or opens the link, then records deals:", "另一部手机扫这个码或打开链接，就能记局："],
  roomQr: ["QR code of the join link", "加入链接的二维码"],
  roomDevices: ["Phones that record", "能记局的手机"],
  roomNoDevices: ["No other phone yet.", "还没有别的手机。"],
  roomRevoke: ["Revoke", "撤销权限 Revoke"],
  roomRevoked: ["{name} can no longer record deals.", "{name} 不能再记局了。"],
  joinHeading: ["Join this table's ledger", "加入这桌的账"],
  joinHint: ["Name this phone; it then records deals in the ledger.", "给这部手机起个名字，之后就能在账上记局。"],
  joinName: ["Phone's name", "手机的名字"],
  joinButton: ["Join", "加入 Join"],
  joinDefault: ["my phone", "我的手机"],
  joined: ["This phone records deals in this ledger now.", "这部手机现在可以在这本账上记局了。"],
  // deals waiting for the network
  queued: ["Waiting to send: {n} deals", "待发送 {n} 局"],
  queuedOne: ["Waiting to send: 1 deal", "待发送 1 局"],
  queueConflict: ["Deal {n} was not sent: another phone recorded deal {n} first (the ledger has {count} deals now).",
    "第 {n} 局没有发出：别的手机先记了第 {n} 局（账上现在有 {count} 局）。"],
  queueResend: ["Send as the next deal", "作为下一局发送 Send as the next deal"],
  queueDrop: ["Drop the waiting deals", "丢弃待发送的局 Drop the waiting deals"],
  // the read links the owner made (GET /ledgers/{id}/read-links), and a stream whose access was taken away
  roomReadLinks: ["Read links", "只读链接"],
  roomReadLink: ["read link", "只读链接 read link"],
  roomNoReadLinks: ["No read links.", "没有只读链接。"],
  roomUnnamed: ["(no name)", "（没有名字）"],
  roomMade: ["made {when}", "{when} 建"],
  roomLinkRevoked: ["The read link {name} no longer reads this ledger.", "只读链接 {name} 不能再看这本账了。"],
  streamRevoked: ["This phone no longer follows this ledger live: its access was taken away.",
    "这部手机不再实时跟着这本账：它的权限被收回了。"],
};
const UNITS = {
  en: { tai: "tai", hu: "hu", fen: "fen", bei: "bei", points: "points", multiplier: "×", han: "han" },
  zh: { tai: "台", hu: "胡", fen: "分", bei: "倍", points: "分", multiplier: "倍", han: "番" },
};
const CONDITION_WORDS = {
  self: ["Self-drawn", "自摸"], "kong-draw": ["Kong replacement", "杠开"], "rob-kong": ["Robbed a kong", "抢杠"],
  "last-tile": ["Last tile", "海底"], heaven: ["Heaven", "天胡"], earth: ["Earth", "地胡"], human: ["Human", "人胡"],
  "da-jin": ["Discarded a 金", "打金"],
};
const EVENT_WORDS = {
  "false-win": ["False win", "诈胡"], foul: ["Foul", "犯规"], liable: ["Liable (pays for all)", "包赔"],
  "gen-da": ["All followed the dealer's discard", "跟打"], "xiao-xiang-gong": ["Wrong draw", "小相公"], "da-jin": ["Discarded a 金", "打金"],
};
const DECLARE_WORDS = {
  "sha-zhu": "杀猪", "hua-hu": "花胡", "san-jin-dao": "三金倒", "qiang-jin": "抢金", "you-jin": "游金",
  "san-jin-you": "三金游",
};
const SUIT_WORDS = { m: "万", p: "筒", s: "条" };
const HONOR_WORDS = { E: "东", S: "南", W: "西", N: "北", C: "中", F: "发", P: "白" };
const FLOWER_WORDS = ["春", "夏", "秋", "冬", "梅", "兰", "菊", "竹"];
const SEATS = ["E", "S", "W", "N"];
const SEAT_WORDS = { E: "东", S: "南", W: "西", N: "北" };
// Condition words as the notation writes them (docs/notation.md), to tell conditions from tiles.
const CHINESE_CONDITIONS = ["自摸", "杠上开花", "杠开", "抢杠", "海底", "天胡", "地胡", "人胡"];

const state = { lang: "en", scoreShown: false, rules: [], palette: {}, paths: new Set(), mode: null, undo: [], ledger: null, tokens: {}, ledgerNote: "",
  roles: {}, queue: [], queueConflict: null, devices: null, readLinks: null, stream: null, joining: null, private: new Set() };
const $ = (id) => document.getElementById(id);

function t(key) { const pair = WORDS[key]; return pair ? pair[state.lang === "zh" ? 1 : 0] : key; }
function fmt(key, values) { return t(key).replace(/\{(\w+)\}/g, (_, name) => values[name] ?? ""); }
function bilingual(pair) { return state.lang === "zh" ? `${pair[1]} ${pair[0]}` : `${pair[0]} ${pair[1]}`; }
function unitWord(unit) { return UNITS[state.lang][unit] ?? unit; }
function el(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else if (key.startsWith("aria-") || key.startsWith("data-")) node.setAttribute(key, value);
    else node[key] = value;
  }
  for (const child of children) if (child != null) node.append(child);
  return node;
}

// -- the server (paths relative to the page, so it also works behind a proxy under a prefix) --------
// Every request names the page's language (`lang=`), so the server's texts — messages, notes, the
// arithmetic — come in the language the page shows.
function inLanguage(path) { return `${path}${path.includes("?") ? "&" : "?"}lang=${state.lang}`; }

async function call(method, path, body, headers = {}) {
  const init = { method, headers: { ...headers } };
  if (body !== undefined) {
    init.headers["content-type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  let reply;
  try { reply = await fetch(inLanguage(path), init); } catch { return { ok: false, status: 0, data: { detail: t("offline") } }; }
  let data = null;
  try { data = await reply.json(); } catch { data = { detail: `${reply.status} ${reply.statusText}` }; }
  return { ok: reply.ok, status: reply.status, data };
}

// -- the rule set and its palette ----------------------------------------------------------------
function ruleSet() { return state.rules.find((r) => r.name === $("rules").value) || state.rules[0]; }
// What the page offers per rule set; /rules wins where it lists the same thing.
function palette() {
  const info = ruleSet() || {};
  const local = state.palette[info.name] || state.palette.lingxi || {};
  return {
    tiles: info.tiles || local.tiles || [],
    conditions: info.conditions || local.conditions || [],
    wildKinds: info.wild_kinds ?? local.wild_kinds ?? 1,
    wildName: info.wild_name || local.wild_name || "",
    declare: info.declare || local.declare || [],
    events: info.events || local.events || [],
  };
}

function tileButton(tile) {
  let face = tile, sub = "", kind = "h";
  if (/^[1-9][mps]$/.test(tile)) { face = tile[0]; sub = SUIT_WORDS[tile[1]]; kind = tile[1]; }
  else if (/^f[1-8]$/.test(tile)) { face = FLOWER_WORDS[Number(tile[1]) - 1]; sub = tile; kind = "f"; }
  else if (HONOR_WORDS[tile]) { face = HONOR_WORDS[tile]; sub = tile; }
  const button = el("button", { type: "button", class: `tile ${kind}`, "aria-label": tile, "data-tile": tile, title: tile },
    el("span", { class: "face", text: face, "aria-hidden": "true" }),
    el("span", { class: "sub", text: sub, "aria-hidden": "true" }));
  button.addEventListener("click", () => tapTile(tile));
  return button;
}

function drawPalette() {
  const { tiles } = palette();
  const box = $("palette");
  box.replaceChildren();
  // columns: 万, 筒, 条, honors, flowers; each padded to nine rows
  const columns = [
    tiles.filter((x) => x.endsWith("m") && x.length === 2), tiles.filter((x) => x.endsWith("p") && x.length === 2),
    tiles.filter((x) => x.endsWith("s") && x.length === 2), tiles.filter((x) => HONOR_WORDS[x]),
    tiles.filter((x) => /^f[1-8]$/.test(x)),
  ].filter((column) => column.length);
  box.style.gridTemplateColumns = `repeat(${columns.length}, minmax(0, 1fr))`;
  for (const column of columns) {
    for (let row = 0; row < 9; row++) {
      box.append(row < column.length ? tileButton(column[row]) : el("span", { class: "gap", "aria-hidden": "true" }));
    }
  }
}

function drawConditions() {
  const { conditions, declare } = palette();
  const box = $("condition-buttons");
  box.replaceChildren();
  for (const cond of conditions) {
    if (["seat", "wild", "flip", "declare"].includes(cond)) continue; // their own controls
    const button = el("button", { type: "button", class: "cond", "aria-pressed": "false", "data-cond": cond,
      text: CONDITION_WORDS[cond] ? bilingual(CONDITION_WORDS[cond]) : cond });
    button.addEventListener("click", () => edit((parts) => toggle(parts.conds, cond)));
    box.append(button);
  }
  $("seat").closest("label").hidden = !conditions.includes("seat");
  document.querySelector('[data-mode="wild"]').hidden = !conditions.includes("wild");
  const wildLabel = document.querySelector('[data-mode="wild"] [data-t]');
  wildLabel.dataset.t = palette().wildName === "金" ? "modeJin" : "modeWild";
  wildLabel.textContent = t(wildLabel.dataset.t);
  document.querySelector('[data-mode="flip"]').hidden = !conditions.includes("flip");
  $("declare-label").hidden = !declare.length;
  $("declare").replaceChildren(el("option", { value: "", text: t("none") }),
    ...declare.map((name) => el("option", { value: name, text: DECLARE_WORDS[name] ? `${DECLARE_WORDS[name]} ${name}` : name })));
  $("table-wild-label").hidden = !conditions.includes("wild");
  $("table-flip-label").hidden = !conditions.includes("flip");
  if (state.mode && document.querySelector(`[data-mode="${state.mode}"]`).hidden) setMode(null);
  syncFromHand();
}

function drawOptions() {
  const info = ruleSet();
  const box = $("options");
  box.replaceChildren();
  for (const option of info?.options || []) {
    const select = el("select", { "aria-label": option.name, "data-option": option.name, "data-default": String(option.default) });
    for (const value of [option.default, ...option.alternatives.filter((v) => v !== option.default)]) {
      select.append(el("option", { value: String(value), text: String(value) }));
    }
    box.append(el("label", { class: "inline", title: option.description },
      el("span", { text: option.name }), select, el("span", { class: "hint", text: option.description })));
  }
  $("options-box").hidden = !(info?.options || []).length;
}

function chosenOptions() {
  const options = {};
  for (const select of document.querySelectorAll("#options select")) {
    if (select.value !== select.dataset.default) options[select.dataset.option] = Number(select.value);
  }
  return options;
}

function setOptions(options) {
  for (const select of document.querySelectorAll("#options select")) {
    const value = options[select.dataset.option];
    if (value === undefined) { select.value = select.dataset.default; continue; }
    if (![...select.options].some((o) => o.value === String(value))) {
      select.append(el("option", { value: String(value), text: String(value) }));
    }
    select.value = String(value);
  }
}

// -- the hand as text: tiles, the winning tile, conditions ----------------------------------------
function isCondition(token) {
  return /^[a-z-]+(:.*)?$/.test(token) || CHINESE_CONDITIONS.includes(token);
}
function splitHand(text) {
  const parts = { tiles: [], win: null, conds: [] };
  for (const token of text.trim().split(/\s+/).filter(Boolean)) {
    if (token.startsWith("+") || token.startsWith("＋")) parts.win = token;
    else if (isCondition(token)) parts.conds.push(token);
    else parts.tiles.push(token);
  }
  return parts;
}
function joinHand(parts) {
  return [...parts.tiles, parts.win, ...parts.conds].filter(Boolean).join(" ");
}
function toggle(list, word) {
  const at = list.indexOf(word);
  if (at >= 0) list.splice(at, 1); else list.push(word);
}
function setKeyed(list, key, value) {
  const at = list.findIndex((c) => c.startsWith(`${key}:`));
  if (at >= 0) list.splice(at, 1);
  if (value) list.push(`${key}:${value}`);
}
function keyed(list, key) {
  const found = list.find((c) => c.startsWith(`${key}:`));
  return found ? found.slice(key.length + 1) : "";
}
// 5m after 123m reads as 1235m: digits of one suit run together, as players write them.
function addToToken(token, tile) {
  const suited = /^([1-9])([mps])$/.exec(tile);
  const run = /(\d+)([mps])$/.exec(token);
  if (suited && run && run[2] === suited[2]) return token.slice(0, run.index) + run[1] + suited[1] + suited[2];
  return token + tile;
}

function edit(change) {
  const field = $("hand");
  state.undo.push(field.value);
  const parts = splitHand(field.value);
  change(parts);
  field.value = joinHand(parts);
  syncFromHand();
}

function tapTile(tile) {
  edit((parts) => {
    const { wildKinds } = palette();
    if (state.mode === "win") { parts.win = `+${tile}`; setMode(null); return; }
    if (state.mode === "flip") { setKeyed(parts.conds, "flip", tile); setMode(null); return; }
    if (state.mode === "wild") {
      const kinds = keyed(parts.conds, "wild").split(",").filter(Boolean);
      const next = kinds.length >= wildKinds ? [tile] : [...kinds, tile];
      setKeyed(parts.conds, "wild", next.join(","));
      if (next.length >= wildKinds) setMode(null);
      return;
    }
    const last = parts.tiles[parts.tiles.length - 1];
    const open = last && /^[[(]/.test(last) && !/[\])]$/.test(last);
    if (open) parts.tiles[parts.tiles.length - 1] = addToToken(last, tile);
    else if (!state.mode && last && /^\d+[mps]$/.test(last) && /^[1-9][mps]$/.test(tile) && last.endsWith(tile[1])) {
      parts.tiles[parts.tiles.length - 1] = addToToken(last, tile);
    } else parts.tiles.push(state.mode === "exposed" ? `[${tile}` : state.mode === "concealed" ? `(${tile}` : tile);
  });
}

function closeMeld() {
  const field = $("hand");
  const parts = splitHand(field.value);
  const last = parts.tiles[parts.tiles.length - 1];
  if (last && /^[[(]/.test(last) && !/[\])]$/.test(last)) {
    parts.tiles[parts.tiles.length - 1] = last + (last[0] === "[" ? "]" : ")");
    field.value = joinHand(parts);
  }
}

function setMode(mode) {
  if (state.mode === "exposed" || state.mode === "concealed") closeMeld();
  state.mode = mode;
  for (const button of document.querySelectorAll("button.mode")) {
    button.setAttribute("aria-pressed", String(button.dataset.mode === mode));
  }
}

function syncFromHand() {
  const parts = splitHand($("hand").value);
  for (const button of document.querySelectorAll("button.cond")) {
    button.setAttribute("aria-pressed", String(parts.conds.includes(button.dataset.cond)));
  }
  const seat = keyed(parts.conds, "seat");
  $("seat").value = SEATS.includes(seat) && seat !== "E" ? seat : "";
  const declared = keyed(parts.conds, "declare");
  if ([...$("declare").options].some((o) => o.value === declared)) $("declare").value = declared;
}

// -- scoring ---------------------------------------------------------------------------------------
// The field's text as sent, so an error's column points into what the player sees.
function trimmed(field) {
  field.value = field.value.trim();
  return field.value;
}

function clearErrors() {
  for (const id of ["score-error", "settle-error", "ledger-error"]) { $(id).hidden = true; $(id).replaceChildren(); }
}

// The place of an error: the 422's `column` when given, else "column N" in its message (1-based).
function errorColumn(data) {
  if (Number.isInteger(data.column)) return data.column;
  const found = /column (\d+)/.exec(data.detail || "");
  return found ? Number(found[1]) : null;
}

function showError(regionId, data, text, field) {
  clearErrors();
  const region = $(regionId);
  const said = data.message ?? data.detail;  // the one error shape: `message` in the page's language
  const detail = typeof said === "string" ? said : JSON.stringify(said);
  region.append(el("p", { text: detail }));
  if (typeof data.hint === "string" && data.hint) region.append(el("p", { class: "hint", text: data.hint }));
  const column = errorColumn(data);
  if (text && column && column >= 1 && column <= text.length) {
    const start = column - 1;
    const quoted = /'([^']+)'/.exec(detail);
    const length = quoted && text.startsWith(quoted[1], start) ? quoted[1].length : 1;
    region.append(el("p", { class: "where" }, el("span", { text: `${t("place")} ` }),
      text.slice(0, start), el("mark", { text: text.slice(start, start + length) }), text.slice(start + length)));
    if (field) field.setSelectionRange(start, start + length);
  }
  region.hidden = false;
}

function arrangementGroup(group) {
  const item = el("li");
  for (const [index, token] of group.split(" ").entries()) {
    if (index) item.append(" ");
    const wild = /^(.+)=(.+)$/.exec(token);
    if (wild) item.append(el("span", { class: "as", title: `${wild[1]} → ${wild[2]}`, text: `${wild[1]}=${wild[2]}` }));
    else item.append(token);
  }
  return item;
}

function showScore(result) {
  const box = $("result");
  const paid = PAID_HEADLINE.has(result.rules) && result.winner && result.legal;
  const parts = [
    el("p", { class: paid ? "total base" : "total" }, `${t(paid ? "basePoints" : "total")}: ${result.total} `,
      el("span", { class: "unit", text: unitWord(result.unit) })),
  ];
  if (!result.legal) parts.push(el("p", { class: "illegal", text: t("notLegal") }));
  if (!result.winner) parts.push(el("p", { class: "hint", text: t("nonWinner") }));
  const items = el("ul", { class: "items" });
  for (const item of result.items) {
    const { unit } = item;
    const value = unit === "bei" || unit === "multiplier" ? `×${item.value}` : `${item.value} ${unitWord(unit)}`;
    // each line opens its item's entry in the rules reference (reference.js)
    items.append(el("li", {}, rulesRefButton(result.rules,
      item,
      el("span", { class: "zh", text: item.name }),
      el("span", { class: "value", text: value }),
      el("span", { class: "en", text: item.name_en }),
      item.detail ? el("span", { class: "detail", text: item.detail }) : null)));
  }
  // the core's arithmetic, one step a line (`?arithmetic=true`): the page computes none of it
  parts.push(items, el("ul", { class: "sum", "aria-label": t("arithmetic") },
    ...(result.arithmetic || []).map((line) => el("li", { text: line }))));
  if (result.arrangement.length) {
    parts.push(el("h3", { text: t("arrangement") }),
      el("ul", { class: "arrangement", "aria-label": t("arrangement") }, ...result.arrangement.map(arrangementGroup)));
  }
  parts.push(el("p", { class: "canonical" }, `${t("readAs")}: `, el("code", { text: result.hand })));
  const typed = $("hand").value.trim();
  parts.push(el("div", { class: "row wrap put" }, el("span", { class: "hint", text: t("putAt") }), ...SEATS.map((seat) => {
    const button = el("button", { type: "button", "aria-label": `${t("putAtSeat")} ${seat}`, text: seat });
    button.addEventListener("click", () => putAtSeat(seat, typed, result.winner));
    return button;
  })));
  if (result.notes.length) {
    parts.push(el("h3", { text: t("notes") }), el("ul", {}, ...result.notes.map((note) => el("li", { text: note }))));
  }
  box.replaceChildren(...parts);
}

async function score() {
  setMode(null);
  writeFragment();
  if (await scored()) $("result").scrollIntoView({ block: "nearest" });
}

// The hand scored and shown (or its error); true when it scored. A change of language asks again.
async function scored() {
  state.scoreShown = true;
  const reply = await call("POST", "score?arithmetic=true", { rules: $("rules").value, hand: trimmed($("hand")), options: chosenOptions() });
  if (!reply.ok) {
    $("result").replaceChildren();
    showError("score-error", reply.data, $("hand").value, $("hand"));
    return false;
  }
  clearErrors();
  showScore(reply.data);
  await showWinnerPaid(reply.data);
  return true;
}

// -- Putian's headline: what the winner is paid ---------------------------------------------------
// A Putian total is the base (底分) that a win's type then multiplies (游金: each other pays ×3), so
// "Total: 2" would read as a win worth 2 where the winner gets 18. The headline is the winner's net from
// settling the hand at its seat (the others' hands count nothing here; every other player pays alike).
const PAID_HEADLINE = new Set(["putian"]);

async function showWinnerPaid(result) {
  if (!PAID_HEADLINE.has(result.rules) || !result.winner || !result.legal) return;
  const hand = $("hand").value.trim();
  const wind = SEATS.includes(keyed(splitHand(hand).conds, "seat")) ? keyed(splitHand(hand).conds, "seat") : "E";
  const players = Object.fromEntries(SEATS.map((w) => [w, w === wind ? hand : { total: 0 }]));
  const other = SEATS[(SEATS.indexOf(wind) + 1) % 4];
  const ownTurn = /(^|\s)(self|自摸|declare:\S+)(\s|$)/.test(hand);
  let reply = null;
  for (const discarder of ownTurn ? [null, other] : [other, null]) {
    reply = await call("POST", "settle", { rules: result.rules, players, winner: wind, discarder, options: chosenOptions() });
    if (reply.ok || reply.data?.field !== "discarder") break;
  }
  if (!reply?.ok || $("hand").value.trim() !== hand) return;
  const net = reply.data.net[wind];
  $("result").prepend(el("p", { class: "total paid" }, `${t("winnerPaid")}: ${signed(net)} `,
    el("span", { class: "unit", text: unitWord(result.unit) })));
}

// -- what wins (only when the server has POST /waits) ----------------------------------------------
function waitsTable(waits) {
  const head = el("tr", {}, ...[t("waitsTile"), t("waitsDiscard"), t("waitsSelf"), t("unseen")].map((x) => el("th", { text: x })));
  const cell = (way) => el("td", { class: "num", text: way ? `${way.total}${way.legal ? "" : ` (${t("notLegalShort")})`}` : t("cannot") });
  const rows = waits.map((w) => el("tr", {}, el("td", { text: w.tile }), cell(w.discard), cell(w.self), el("td", { class: "num", text: String(w.unseen) })));
  return el("table", {}, el("caption", { text: t("waits") }), el("thead", {}, head), el("tbody", {}, ...rows));
}

async function showWaits() {
  const reply = await call("POST", "waits", { rules: $("rules").value, hand: trimmed($("hand")), options: chosenOptions() });
  state.scoreShown = false;
  if (!reply.ok) { showError("score-error", reply.data, $("hand").value, $("hand")); return; }
  clearErrors();
  const data = reply.data;
  const parts = [];
  if (data.discards) {
    for (const choice of data.discards) parts.push(el("h3", { text: `${t("waitsDiscardFirst")} ${choice.tile}` }), waitsTable(choice.waits));
  } else if (!data.waits.length) parts.push(el("p", { text: t("waitsNone") }));
  else parts.push(waitsTable(data.waits));
  $("result").replaceChildren(...parts);
}

// -- sharing: the fragment holds rules, hand and options --------------------------------------------
function writeFragment() {
  const params = new URLSearchParams({ rules: $("rules").value, hand: $("hand").value.trim() });
  for (const [name, value] of Object.entries(chosenOptions())) params.set(`o.${name}`, String(value));
  history.replaceState(null, "", `#${params}`);
}

function readFragment() {
  const params = new URLSearchParams(location.hash.slice(1));
  if (!params.has("hand")) return false;
  const rules = params.get("rules");
  if (rules && state.rules.some((r) => r.name === rules)) { $("rules").value = rules; ruleSetChanged(); }
  $("hand").value = params.get("hand");
  const options = {};
  for (const [key, value] of params) if (key.startsWith("o.") && /^\d+$/.test(value)) options[key.slice(2)] = Number(value);
  try { Object.assign(options, JSON.parse(params.get("options") || "{}")); } catch { /* a hand-made link: options ignored */ }
  setOptions(options);
  syncFromHand();
  return true;
}

// A browser that may not write the clipboard can also leave the promise pending: wait 1 s at most.
async function copyText(text) {
  const refused = new Promise((_, reject) => setTimeout(() => reject(new Error("no answer")), 1000));
  try { await Promise.race([navigator.clipboard.writeText(text), refused]); return true; } catch { return false; }
}

async function copyLink() {
  writeFragment();
  const url = location.href;
  $("link").value = url;
  $("link-box").hidden = false;
  const copied = await copyText(url);
  $("link-note").textContent = copied ? t("copied") : t("copyByHand");
  if (!copied) $("link").select();
}

// -- settling ----------------------------------------------------------------------------------------
function drawSeats() {
  const box = $("seats");
  if (!box.children.length) {
    for (const seat of SEATS) {
      const id = `seat-${seat}`;
      box.append(el("label", { class: "field", htmlFor: id, "data-seat-label": seat }),
        el("textarea", { id, rows: 2, autocomplete: "off", autocapitalize: "off", spellcheck: false }));
    }
  }
  const seats = seating();
  for (const label of box.querySelectorAll("[data-seat-label]")) label.textContent = placeName(label.dataset.seatLabel, seats, true);
  for (const area of box.querySelectorAll("textarea")) area.placeholder = state.lang === "zh" ? "牌，或台数" : "hand, or a total";
  const fill = (select, nobody) => {
    const chosen = select.value;
    select.replaceChildren(...(nobody ? [el("option", { value: "", text: nobody })] : []), ...placeOptions());
    select.value = chosen;
    if (select.selectedIndex < 0) select.selectedIndex = 0;
  };
  const dealerChosen = $("dealer").value;
  $("dealer").replaceChildren(...SEATS.map((place, i) => el("option", { value: place,
    text: seats.E.player ? playerAtPlace(place) : fmt("placeN", { n: i + 1 }) })));
  $("dealer").value = dealerChosen || "E";
  fill($("winner"), t("drawn"));
  fill($("discarder"), t("selfDrawn"));
  for (const select of document.querySelectorAll("[data-event-seat]")) fill(select, null);
}

// The four places as options, each named as it sits this deal.
function placeOptions() {
  const seats = seating();
  return SEATS.map((place) => el("option", { value: place, text: placeName(place, seats) }));
}

function addEvent(type, seat) {
  const { events } = palette();
  const typeSelect = el("select", { "aria-label": t("eventType"), "data-event-type": "" },
    ...events.map((e) => el("option", { value: e, text: EVENT_WORDS[e] ? `${bilingual(EVENT_WORDS[e])}` : e })));
  const seatSelect = el("select", { "aria-label": t("eventSeat"), "data-event-seat": "" }, ...placeOptions());
  if (type) typeSelect.value = type;
  if (seat) seatSelect.value = seat;
  const remove = el("button", { type: "button", text: t("removeEvent") });
  const item = el("li", {}, typeSelect, seatSelect, remove);
  remove.addEventListener("click", () => item.remove());
  $("events").append(item);
}

function drawEvents() {
  const { events } = palette();
  $("events").replaceChildren();
  $("events-box").hidden = !events.length;
}

// From the scored hand to the settle form: the seat's field, and the winner and wildcards if not yet set.
function putAtSeat(place, hand, winner) {
  const field = $(`seat-${place}`);
  field.value = hand;
  if (winner && !$("winner").value) $("winner").value = place;
  const wild = /(?:^|\s)wild:(\S+)/.exec(hand);
  if (wild && !$("table-wild").value.trim()) $("table-wild").value = wild[1];
  field.focus();
}

function playerOf(text) {
  const value = text.trim();
  if (!value) return { total: 0 };
  if (/^\d+$/.test(value)) return { total: Number(value) };
  return value;
}

// -- who sits where this deal -------------------------------------------------------------------
// Seats stay winds at the API: E deals. The page's fields are the four places at the table (with a
// ledger kept here, its players in table order), and the dealer may sit at any of them; each place
// plays this deal as the wind counted from the dealer. Every label, option, result row and error names
// a seat by that wind (the dealer is always 东) and its player: `seating()` is the one mapping they use.
function dealerSeat() { return $("dealer").value || "E"; }
function windOf(place) { return SEATS[(SEATS.indexOf(place) - SEATS.indexOf(dealerSeat()) + 4) % 4]; }
function placeOf(wind) { return SEATS[(SEATS.indexOf(wind) + SEATS.indexOf(dealerSeat())) % 4]; }
function rotated() { return dealerSeat() !== "E"; }

// This deal's winds: each with its place and (a ledger kept here) its player. A result keeps the one it
// was settled with, so its rows still name the right people after the form moves on to the next deal.
function seating() {
  const named = keptPlayers();
  return Object.fromEntries(SEATS.map((place) => [windOf(place), { place, player: named ? playerAtPlace(place) : null }]));
}
function seatName(wind, seats = seating(), withDealer = false) {
  const player = seats[wind]?.player;
  const windText = state.lang === "zh" ? `${SEAT_WORDS[wind]} ${wind}` : `${wind} ${SEAT_WORDS[wind]}`;
  const dealer = withDealer && wind === "E" ? (state.lang === "zh" ? "（庄）" : " (dealer)") : "";
  return `${windText}${player ? ` · ${player}` : ""}${dealer}`;
}
function placeName(place, seats = seating(), withDealer = false) {
  const wind = Object.keys(seats).find((w) => seats[w].place === place);
  return seatName(wind, seats, withDealer);
}

// An error of the API names seats by wind ("discarder: N …", "(E 4, N 1)", "players.E: …"): each is
// written as the seat is labelled, with its player.
function relabelled(text, data, seats = seating()) {
  if (typeof text !== "string") return text;
  let said = text.replace(/players\.([ESWN])(?=[:：])/g, (_, wind) => seatName(wind, seats));
  said = said.replace(/([(（])([ESWN] \d+(?:, [ESWN] \d+)*)([)）])/g, (_, open, list, close) =>
    open + list.replace(/([ESWN]) (\d+)/g, (__, wind, n) => `${seatName(wind, seats)}: ${n}`) + close);
  if (/^(winner|discarder|events)/.test(data.field || "")) {
    said = said.replace(/(^|[:：]\s*)([ESWN])(?![A-Za-z0-9])/, (_, before, wind) => before + seatName(wind, seats));
  }
  return said;
}

function playerAt(place) {
  const player = playerOf(trimmed($(`seat-${place}`)));
  if (typeof player !== "string" || !rotated()) return player;
  return player.replace(/\bseat:[ESWN]\b/g, `seat:${windOf(place)}`);
}

function table() {
  const data = { rules: $("rules").value, players: {}, events: [], options: chosenOptions() };
  for (const place of SEATS) data.players[windOf(place)] = playerAt(place);
  const wild = $("table-wild").value.split(/[,\s，]+/).filter(Boolean);
  if (wild.length && !$("table-wild-label").hidden) data.wild = wild;
  const flip = $("table-flip").value.trim();
  if (flip && !$("table-flip-label").hidden) data.flip = flip;
  data.winner = $("winner").value ? windOf($("winner").value) : null;
  data.discarder = $("discarder").value ? windOf($("discarder").value) : null;
  for (const item of $("events").children) {
    data.events.push({ type: item.querySelector("[data-event-type]").value, seat: windOf(item.querySelector("[data-event-seat]").value) });
  }
  return data;
}

function signed(n) { return n > 0 ? `+${n}` : String(n); }

// One table, two row groups: the nets (what each seat wins or pays) first, then every payment; each seat
// named as it sat in this deal (`seats`).
function showSettlement(result, seats = seating()) {
  const unit = unitWord((Object.values(result.scores).find((s) => s.unit) || {}).unit || "");
  const header = (...names) => el("tr", {}, ...names.map((name, i) => el("th", { scope: "col", class: i ? "num" : "", text: name })));
  const byPlace = SEATS.map((place) => Object.keys(seats).find((wind) => seats[wind].place === place));
  const netRows = byPlace.map((wind) => {
    const score = result.scores[wind] || {};
    const net = result.net[wind] ?? 0;
    return el("tr", {}, el("th", { scope: "row", text: seatName(wind, seats, true) }),
      el("td", { class: "num", text: `${score.total ?? ""} ${unit}`.trim() }),
      el("td", { class: `num ${net > 0 ? "plus" : net < 0 ? "minus" : ""}`, text: signed(net) }));
  });
  const paymentRows = result.payments.map((p) => el("tr", {},
    el("td", { text: `${seatName(p.from, seats)} → ${seatName(p.to, seats)}` }),
    el("td", { class: "num", text: String(p.amount) }), el("td", { class: "reason", text: p.reason })));
  if (!paymentRows.length) paymentRows.push(el("tr", {}, el("td", { colSpan: 3, text: t("noPayments") })));
  const title = `${t("nets")} · ${t("payments")}`;
  const settled = el("table", { "aria-label": title }, el("caption", { text: title }),
    el("tbody", { class: "nets", "aria-label": t("nets") }, header(t("seatCol"), unit || t("total"), t("net")), ...netRows),
    el("tbody", { class: "payments", "aria-label": t("payments") },
      el("tr", {}, el("th", { scope: "col", text: `${t("from")} → ${t("to")}` }), el("th", { scope: "col", class: "num", text: t("amount") }),
        el("th", { scope: "col", text: t("reason") })), ...paymentRows));
  const notes = [];
  for (const wind of byPlace) for (const note of result.scores[wind]?.notes || []) notes.push(el("li", { text: `${seatName(wind, seats)}: ${note}` }));
  $("settlement").replaceChildren(settled, el("p", { text: `${t("nextDealer")}: ${seatName(result.next_dealer, seats)}` }),
    notes.length ? el("ul", {}, ...notes) : "");
}

// A refused table: the error's `seat` (or "players.E: … at column 17") puts the place in that seat's hand.
function showTableError(regionId, data) {
  const named = /^[ESWN]$/.test(data.seat ?? "") ? data.seat : /^players\.([ESWN])\b/.exec(data.detail || "")?.[1];
  const field = named ? $(`seat-${placeOf(named)}`) : null;
  const seats = seating();
  const shown = { ...data, message: relabelled(data.message, data, seats), detail: relabelled(data.detail, data, seats) };
  showError(regionId, shown, field ? field.value : "", field);
}

async function settle() {
  const data = table();
  const reply = await call("POST", "settle", data);
  if (!reply.ok) {
    $("settlement").replaceChildren();
    showTableError("settle-error", reply.data);
    return;
  }
  clearErrors();
  showSettlement(reply.data);
}

// -- the evening's ledger ------------------------------------------------------------------------
// Through the HTTP ledger endpoints: POST /ledgers → {id, token}; GET /ledgers/{id} (needs only the
// id, so the link is shared with the table); POST /ledgers/{id}/deals and DELETE …/deals/last with
// Authorization: Bearer <token>. The page keeps the id it shows and the tokens of the ledgers made
// here in localStorage; a ledger without its token here is shown read-only. The totals shown are
// the server's, summed from the stored deals.
const LEDGER_KEY = "taihu.ledger";
const TOKENS_KEY = "taihu.ledgerTokens";
const LEDGER_ID = /^[A-Za-z0-9_-]{16,64}$/;

function remembered(key, fallback) {
  try { return JSON.parse(localStorage.getItem(key)) ?? fallback; } catch { return fallback; }
}
function remember(key, value) {
  try {
    if (value == null) localStorage.removeItem(key); else localStorage.setItem(key, JSON.stringify(value));
  } catch { /* storage refused (private mode): kept for this visit only */ }
}

function ledgerToken() { return state.ledger ? state.tokens[state.ledger.id] || null : null; }
function ledgerPlayers() { return state.ledger?.data?.players || null; }
// While a ledger this page keeps is open, the settle form's places are its players in table order.
function keptPlayers() { return Boolean(ledgerToken() && ledgerPlayers()); }
function playerAtPlace(place) { return ledgerPlayers()[SEATS.indexOf(place)]; }
function placeOfPlayer(name) { return SEATS[ledgerPlayers().indexOf(name)]; }
function ledgerLink(id) { return `${location.origin}${location.pathname}#ledger=${encodeURIComponent(id)}`; }

// The settle form's table with players named, so each hand goes to its player whoever deals.
function namedTable(data) {
  const name = (wind) => (wind ? playerAtPlace(placeOf(wind)) : wind);
  const players = {};
  for (const [wind, player] of Object.entries(data.players)) players[name(wind)] = player;
  return { ...data, players, winner: name(data.winner), discarder: name(data.discarder),
    events: data.events.map((event) => ({ ...event, seat: name(event.seat) })) };
}

// The settle form follows the ledger: its dealer is the ledger's next dealer (and on opening, its rules).
function followLedger(withRules) {
  if (!keptPlayers()) { drawSeats(); return; }
  const rules = state.ledger.data.rules;
  if (withRules && $("rules").value !== rules && state.rules.some((r) => r.name === rules)) {
    $("rules").value = rules;
    ruleSetChanged();
  }
  $("dealer").value = placeOfPlayer(state.ledger.data.next_dealer);
  drawSeats();
}

function dealResult(deal) {
  const who = (wind) => deal.seats[wind] ?? wind;
  const { winner, discarder, events } = deal.table;
  const falseWin = (events || []).find((event) => event.type === "false-win");
  if (winner) return discarder ? fmt("wonOn", { w: who(winner), d: who(discarder) }) : fmt("wonSelf", { w: who(winner) });
  if (falseWin) return fmt("falseWin", { x: who(falseWin.seat) });
  return t("drawnDeal");
}

function signClass(n) { return n > 0 ? "plus" : n < 0 ? "minus" : ""; }

// One row per deal: who dealt and what happened, each player's seat and net (the running total
// below it); the totals row is the server's.
function ledgerTable(data) {
  const { players } = data;
  const running = Object.fromEntries(players.map((p) => [p, 0]));
  const head = el("tr", {}, el("th", { scope: "col", text: t("dealCol") }),
    ...players.map((p) => el("th", { scope: "col", class: "num", text: p })));
  const rows = data.deals.map((deal, index) => {
    const windOfPlayer = Object.fromEntries(Object.entries(deal.seats).map(([wind, player]) => [player, wind]));
    return el("tr", {}, el("th", { scope: "row" }, `${index + 1} `,
      el("span", { class: "dealt", text: fmt("dealt", { name: deal.dealer }) }), " ",
      el("span", { class: "outcome", text: dealResult(deal) })),
      ...players.map((p) => {
        const net = deal.settlement.net[windOfPlayer[p]] ?? 0;
        running[p] += net;
        return el("td", { class: `num ${signClass(net)}` }, `${windOfPlayer[p]} ${signed(net)} `,
          el("span", { class: "run", text: String(running[p]) }));
      }));
  });
  if (!rows.length) rows.push(el("tr", {}, el("td", { colSpan: players.length + 1, text: t("noDeals") })));
  const totals = el("tr", { class: "totals" }, el("th", { scope: "row", text: t("ledgerTotal") }),
    ...players.map((p) => el("td", { class: `num ${signClass(data.totals[p])}`, text: signed(data.totals[p]) })));
  return el("div", { class: "ledger-wrap" }, el("table", { class: "ledger", "aria-label": t("ledgerDeals") },
    el("caption", { text: t("ledgerDeals") }), el("thead", {}, head), el("tbody", {}, ...rows), el("tfoot", {}, totals)));
}

// Each player's running total across the deals, as an inline SVG (no request anywhere): one line a
// player, told apart by colour and by dash (a phone in sunlight, or eyes that mix red and green), the
// zero line, the first and last deal on the x axis; the legend below in the page's own text. Named
// (role img, <title>) and described (<desc>: every player's final total) for a screen reader.
const SVG = "http://www.w3.org/2000/svg";
const TREND_LINES = [["#0f5132", ""], ["#b02a37", "6 3"], ["#084298", "2 3"], ["#6f4e00", "9 3 2 3"]];
function svg(tag, attributes = {}, ...children) {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, value);
  for (const child of children) if (child != null) node.append(child);
  return node;
}

function trendChart(data) {
  const { players, deals } = data;
  if (!deals.length) return null;
  const running = Object.fromEntries(players.map((p) => [p, [0]]));
  for (const deal of deals) {
    const windOfPlayer = Object.fromEntries(Object.entries(deal.seats).map(([wind, player]) => [player, wind]));
    for (const p of players) running[p].push(running[p].at(-1) + (deal.settlement.net[windOfPlayer[p]] ?? 0));
  }
  const values = players.flatMap((p) => running[p]);
  const low = Math.min(0, ...values), high = Math.max(0, ...values);
  const [width, height, left, right, top, bottom] = [320, 160, 44, 8, 8, 20];
  const x = (i) => left + (i / deals.length) * (width - left - right);
  const y = (v) => top + (high === low ? 0.5 : (high - v) / (high - low)) * (height - top - bottom);
  const label = (text, attributes) => svg("text", { class: "trend-label", ...attributes }, text);
  const totals = players.map((p) => `${p} ${signed(data.totals[p])}`).join(", ");
  const chart = svg("svg", { viewBox: `0 0 ${width} ${height}`, role: "img", class: "trend",
    "aria-labelledby": "trend-title", "aria-describedby": "trend-desc" },
    svg("title", { id: "trend-title" }, t("trend")),
    svg("desc", { id: "trend-desc" }, fmt("trendDesc", { n: deals.length, totals })),
    svg("line", { x1: left, x2: width - right, y1: y(0), y2: y(0), class: "trend-zero" }),
    label(String(high), { x: left - 4, y: top + 8, "text-anchor": "end" }),
    label("0", { x: left - 4, y: y(0) + 4, "text-anchor": "end" }),
    label(String(low), { x: left - 4, y: height - bottom, "text-anchor": "end" }),
    label(`${t("trendDeal")} 0`, { x: left, y: height - 4 }),
    label(`${t("trendDeal")} ${deals.length}`, { x: width - right, y: height - 4, "text-anchor": "end" }),
    ...players.map((p, i) => svg("polyline", { class: "trend-line", fill: "none", stroke: TREND_LINES[i % 4][0],
      "stroke-dasharray": TREND_LINES[i % 4][1], "data-player": p,
      points: running[p].map((v, n) => `${x(n).toFixed(1)},${y(v).toFixed(1)}`).join(" ") })));
  const legend = el("ul", { class: "trend-legend", "aria-hidden": "true" }, ...players.map((p, i) =>
    el("li", {}, svgSwatch(i), ` ${p} ${signed(data.totals[p])}`)));
  return el("figure", { class: "trend-figure" }, chart, legend);
}

function svgSwatch(i) {
  return svg("svg", { viewBox: "0 0 24 8", width: "24", height: "8", "aria-hidden": "true" },
    svg("line", { x1: 0, x2: 24, y1: 4, y2: 4, stroke: TREND_LINES[i % 4][0], "stroke-width": 2.5,
      "stroke-dasharray": TREND_LINES[i % 4][1] }));
}

function drawLedger() {
  const shown = state.ledger?.data;
  const token = ledgerToken();
  const mine = Object.keys(state.tokens);
  $("ledger-actions").hidden = !(shown && token);
  $("ledger-undo").disabled = !shown?.deals.length;
  $("ledger-tools").hidden = !shown;
  $("ledger-share").hidden = !shown;
  $("ledger-mine").hidden = !shown || Boolean(token) || !mine.length;
  $("room").hidden = !(shown && isOwner());
  if (!$("room").hidden) { drawDevices(); drawReadLinks(); }
  drawQueue();
  if (!shown) { $("ledger-view").replaceChildren(); return; }
  const { id } = state.ledger;
  const info = state.rules.find((r) => r.name === shown.rules);
  const rulesName = info ? (state.lang === "zh" ? `${info.chinese} ${info.name}` : `${info.name[0].toUpperCase()}${info.name.slice(1)} ${info.chinese}`) : shown.rules;
  const next = shown.players.indexOf(shown.next_dealer);
  const seats = SEATS.map((wind, i) => `${wind} ${shown.players[(next + i) % shown.players.length]}`).join(" · ");
  $("ledger-view").replaceChildren(el("div", {},
    el("p", { class: "meta", text: `${rulesName} · ${shown.deals.length} ${t("dealsCount")}` }),
    ledgerTable(shown),
    trendChart(shown),
    el("p", { class: "next" }, `${t("nextToDeal")}: `, el("strong", { text: shown.next_dealer }), ` (${seats})`),
    token ? null : el("p", { class: "hint", text: t("readOnly") }),
    state.ledgerNote ? el("p", { class: "done", text: state.ledgerNote }) : null));
  $("ledger-csv").href = `ledgers/${encodeURIComponent(id)}.csv`;
  $("ledger-link").href = ledgerLink(id);
  $("ledger-link").textContent = ledgerLink(id);
}

// An open ledger is read without a token, so the service worker may keep it for the page offline; a
// private one (403 `ledger_private`) with this phone's token, from then on.
async function readLedger(id) {
  const path = `ledgers/${encodeURIComponent(id)}`;
  const token = state.tokens[id];
  const withToken = () => call("GET", path, undefined, { authorization: `Bearer ${token}` });
  if (token && state.private.has(id)) return withToken();
  const reply = await call("GET", path);
  if (reply.status !== 403 || reply.data?.code !== "ledger_private" || !token) return reply;
  state.private.add(id);
  return withToken();
}

async function openLedger(id) {
  const reply = await readLedger(id);
  state.ledgerNote = "";
  if (!reply.ok) {
    if (reply.status === 404) { state.ledger = null; remember(LEDGER_KEY, null); listen(); }
    showError("ledger-error", { detail: `${reply.data.detail} ${reply.status === 404 ? t("ledgerGone") : ""}`.trim() }, "", null);
  } else {
    state.ledger = { id, data: reply.data };
    remember(LEDGER_KEY, id);
    followLedger(true);
    listen();
    loadOwnerList("devices");
    loadOwnerList("readLinks");
    flushQueue();
  }
  drawLedger();
}

async function newLedger(event) {
  event.preventDefault();
  const players = [1, 2, 3, 4].map((n) => $(`player-${n}`).value.trim());
  const reply = await call("POST", "ledgers", { rules: $("rules").value, players, options: chosenOptions() });
  if (!reply.ok) { showError("ledger-error", reply.data, "", null); return; }
  clearErrors();
  state.tokens[reply.data.id] = reply.data.token;
  remember(TOKENS_KEY, state.tokens);
  await openLedger(reply.data.id);
}

// A change needs the token; a refused one changes nothing, and the alert says why.
async function changeLedger(method, path, body, headers = {}) {
  const buttons = [$("ledger-add"), $("ledger-undo")];
  for (const button of buttons) button.disabled = true;
  const reply = await call(method, `ledgers/${encodeURIComponent(state.ledger.id)}/${path}`, body,
    { authorization: `Bearer ${ledgerToken()}`, ...headers });
  for (const button of buttons) button.disabled = false;
  if (reply.status === 401 || reply.status === 403) showError("ledger-error", { detail: `${t("noToken")} (${reply.data.detail})` }, "", null);
  else if (!reply.ok && method === "POST") showTableError("ledger-error", reply.data);
  else if (!reply.ok) showError("ledger-error", reply.data, "", null);
  drawLedger();
  return reply;
}

// A deal goes into the queue first, with its idempotency key and the number it is to get, and is sent
// from there: at once when the network is there, in order when it comes back.
async function addDeal() {
  const { data, id } = state.ledger;
  const waiting = queued(id).length;
  if (!waiting) {  // with deals waiting, who deals next is known only once they are in
    const dealer = placeOfPlayer(data.next_dealer);
    if (dealerSeat() !== dealer) {
      $("dealer").value = dealer;
      drawSeats();
      showError("ledger-error", { detail: fmt("wrongDealer", { name: data.next_dealer, place: dealer }) }, "", null);
      return;
    }
  }
  clearErrors();
  state.queue.push({ ledger: id, key: newKey(), deal: data.deals.length + waiting + 1, table: namedTable(table()) });
  remember(QUEUE_KEY, state.queue);
  drawQueue();
  await flushQueue();
}

// The deal as the ledger stored it: its winds, each with the place and player that sat there.
function dealSeating(deal) {
  return Object.fromEntries(Object.entries(deal.seats).map(([wind, player]) => [wind, { place: placeOfPlayer(player), player }]));
}

// A deal the server took (201, or 200: the first answer to the same key again).
async function tookDeal(answer) {
  const { deal } = answer;
  await mergeChange(answer, true);
  state.ledgerNote = fmt("added", { n: deal.number, result: dealResult(deal) });
  followLedger(false);
  showSettlement(deal.settlement, dealSeating(deal)); // named as the deal was seated, whoever deals now
}

async function undoDeal() {
  const last = state.ledger.data.deals.at(-1);
  if (!last || !(await confirmUndo(last))) return;
  const reply = await changeLedger("DELETE", `deals/last?deal=${last.number}`, undefined, { "idempotency-key": newKey() });
  if (reply.status === 409 || reply.status === 412) {
    await reread();
    showError("ledger-error", { detail: fmt("undoStale", { n: last.number }) }, "", null);
    drawLedger();
    return;
  }
  if (!reply.ok) return;
  const answer = reply.data;
  clearErrors();
  await mergeChange(answer, false);
  state.ledgerNote = fmt("removed", { n: answer.deal.number, result: dealResult(answer.deal) });
  $("settlement").replaceChildren();
  followLedger(false);
  drawLedger();
}

// Undo asks first, naming the deal it removes; true when confirmed.
function confirmUndo(deal) {
  const dialog = $("undo-dialog");
  $("undo-question").textContent = fmt("undoAsk", { n: deal.number, result: dealResult(deal) });
  dialog.returnValue = "";
  return new Promise((resolve) => {
    dialog.addEventListener("close", () => resolve(dialog.returnValue === "undo"), { once: true });
    dialog.showModal();
    $("undo-cancel").focus();
  });
}

// An add or undo answers the deal and the standings, not the ledger: the deals shown take the change,
// and the standings' keys are the ledger's. A change already shown (the live stream brought it first)
// changes nothing; if another phone changed the ledger otherwise, the whole ledger is read again.
async function mergeChange(answer, added) {
  const data = state.ledger.data;
  const shown = data.deals.length;
  const count = answer.standings.deal_count;
  if (answer.deal.number === (added ? shown + 1 : shown) && count === (added ? shown + 1 : shown - 1)) {
    if (added) data.deals.push(answer.deal); else data.deals.pop();
    Object.assign(data, answer.standings);
    return;
  }
  if (count === shown && (added ? data.deals[answer.deal.number - 1]?.number === answer.deal.number : answer.deal.number === shown + 1)) return;
  await reread();
}

async function reread() {
  const id = state.ledger.id;
  const reply = await readLedger(id);
  if (reply.ok && state.ledger?.id === id) state.ledger.data = reply.data;
}

// A private ledger's CSV needs this phone's token, which a link cannot carry: it is fetched with the token in
// the Authorization header and handed to the browser as a file. An open ledger's link downloads as it is.
async function downloadPrivateCsv(event) {
  const id = state.ledger?.id;
  const token = id && state.tokens[id];
  if (!token || !state.private.has(id)) return;
  event.preventDefault();
  const reply = await fetch(inLanguage(`ledgers/${encodeURIComponent(id)}.csv`), { headers: { authorization: `Bearer ${token}` } });
  if (!reply.ok) { showError("ledger-error", await reply.json().catch(() => ({})), "", null); return; }
  const url = URL.createObjectURL(await reply.blob());
  const save = el("a", { href: url, download: `${id}.csv` });
  document.body.append(save);
  save.click();
  save.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

async function copyLedgerLink() {
  const copied = await copyText(ledgerLink(state.ledger.id));
  $("ledger-link-note").textContent = copied ? t("ledgerCopied") : t("ledgerCopyByHand");
}

function linkedLedger() {
  const id = new URLSearchParams(location.hash.slice(1)).get("ledger");
  return id && LEDGER_ID.test(id) ? id : null;
}

// Only where the server has /ledgers: the section, and the ledger of a #ledger=<id> (or #join=<id>:<code>)
// link or the one shown here last.
async function setupLedger(paths) {
  if (!paths.has("/ledgers")) return;
  $("ledger-section").hidden = false;
  const tokens = remembered(TOKENS_KEY, {});
  state.tokens = tokens && typeof tokens === "object" ? tokens : {};
  const roles = remembered(ROLES_KEY, {});
  state.roles = roles && typeof roles === "object" ? roles : {};
  const queue = remembered(QUEUE_KEY, []);
  state.queue = Array.isArray(queue) ? queue : [];
  $("ledger-new").addEventListener("submit", newLedger);
  $("ledger-add").addEventListener("click", addDeal);
  $("ledger-undo").addEventListener("click", undoDeal);
  $("ledger-refresh").addEventListener("click", () => openLedger(state.ledger.id));
  $("ledger-copy").addEventListener("click", copyLedgerLink);
  $("ledger-csv").addEventListener("click", downloadPrivateCsv);
  $("ledger-mine").addEventListener("click", () => openLedger(Object.keys(state.tokens).at(-1)));
  setupRoom();
  window.addEventListener("hashchange", () => {
    const joining = linkedJoin();
    if (joining) { askToJoin(joining); return; }
    const id = linkedLedger();
    if (id && id !== state.ledger?.id) openLedger(id);
  });
  window.addEventListener("online", () => flushQueue());
  setInterval(() => { if (queued().length) flushQueue(); }, QUEUE_RETRY_MS);  // the devices follow the stream
  const joining = linkedJoin();
  const id = joining?.id || linkedLedger() || remembered(LEDGER_KEY, null);
  if (typeof id === "string" && LEDGER_ID.test(id)) await openLedger(id);
  if (joining) askToJoin(joining);
}

// -- live: the ledger's changes as they happen -----------------------------------------------------
// Every phone with a ledger open listens to its event stream (GET /ledgers/{id}/events), so a deal another
// phone records shows here without a tap. It is read with fetch, not EventSource: EventSource sends no
// headers, and a private ledger's stream needs the phone's token, which goes in the Authorization header
// (never in the address, where access logs and proxies would keep it). Like EventSource, the reader
// reconnects after a break and resumes with Last-Event-ID. The stream speaks the page's language and
// carries the phone's token, so a change of either listens anew; a `revoked` event (the access that
// opened it was taken away) ends it for good.
const STREAM_RETRY_MS = 2000;

function listen() {
  const id = state.ledger?.id || null;
  const key = id ? `${id} ${state.lang} ${state.tokens[id] || ""}` : null;
  if (state.stream?.key === key) return;
  state.stream?.stop.abort();
  state.stream = null;
  if (!id || typeof TextDecoderStream === "undefined") return;
  const stream = { key, id, stop: new AbortController(), lastId: null, retry: STREAM_RETRY_MS };
  state.stream = stream;
  follow(stream);
}

async function follow(stream) {
  while (!stream.stop.signal.aborted && !(await readStream(stream)) && !stream.stop.signal.aborted) {
    await new Promise((resolve) => setTimeout(resolve, stream.retry));
  }
}

// One connection of the stream; true when it is over for good (refused, revoked, the ledger deleted).
async function readStream(stream) {
  const token = state.tokens[stream.id];
  const headers = { accept: "text/event-stream" };
  if (token) headers.authorization = `Bearer ${token}`;
  if (stream.lastId !== null) headers["last-event-id"] = stream.lastId;
  let reply;
  try {
    reply = await fetch(inLanguage(`ledgers/${encodeURIComponent(stream.id)}/events`),
      { headers, cache: "no-store", signal: stream.stop.signal });
  } catch { return false; }  // no network: tried again
  if (reply.status === 403 || reply.status === 404) return true;  // reading the ledger says why
  if (!reply.ok || !reply.body) return false;
  flushQueue();  // the server is there: deals waiting go in
  const lines = reply.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  let event = { data: [] };
  try {
    for (;;) {
      const { value, done } = await lines.read();
      if (done) return false;
      buffer += value;
      const complete = buffer.split(/\r?\n/);
      buffer = complete.pop();  // a line not ended yet (a lone \r stays with it, as \r\n may follow)
      for (const line of complete) {
        if (line === "") {  // an event ends
          if (event.data.length && dispatch(stream, event)) { stream.stop.abort(); return true; }
          event = { data: [] };
        } else if (!line.startsWith(":")) {  // a comment (the keep-alive) is skipped
          const colon = line.indexOf(":");
          const field = colon < 0 ? line : line.slice(0, colon);
          const text = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
          if (field === "event") event.kind = text;
          else if (field === "data") event.data.push(text);
          else if (field === "id" && !text.includes("\0")) event.id = text;
          else if (field === "retry" && /^\d+$/.test(text)) stream.retry = Number(text);
        }
      }
    }
  } catch { return false; }  // the connection broke (or was closed here): tried again unless stopped
}

// An event of the stream; true when it is the last one.
function dispatch(stream, event) {
  if (event.id !== undefined) stream.lastId = event.id;
  let data = null;
  try { data = JSON.parse(event.data.join("\n")); } catch { return false; }
  const kind = event.kind || "message";
  if (kind === "revoked") {
    if (state.ledger?.id === stream.id) showError("ledger-error", { detail: t("streamRevoked") }, "", null);
    return true;
  }
  heard(stream.id, kind, data);
  return kind === "ledger-deleted";
}

async function heard(id, kind, data) {
  if (state.ledger?.id !== id) return;
  const shown = state.ledger.data;
  const count = shown.deals.length;
  if (kind === "ledger-deleted") { await openLedger(id); return; }
  if (kind.startsWith("device-")) { await loadOwnerList("devices"); return; }  // the owner's list follows the room
  if (kind.startsWith("read-link-")) { await loadOwnerList("readLinks"); return; }
  if (data.resync) { loadOwnerList("devices"); loadOwnerList("readLinks"); }  // what changed while away is read again
  let moved = true;
  if (kind === "deal-added" && data.entry?.number === count + 1) {
    shown.deals.push(data.entry);
    Object.assign(shown, data.standings);
    state.ledgerNote = fmt("added", { n: data.entry.number, result: dealResult(data.entry) });
  } else if (kind === "deal-undone" && data.entry?.number === count) {
    shown.deals.pop();
    Object.assign(shown, data.standings);
    state.ledgerNote = fmt("removed", { n: data.entry.number, result: dealResult(data.entry) });
  } else if (data.standings?.deal_count === count && !data.resync) {
    moved = false;  // shown already (this phone's own change, or the stream's first event)
  } else {
    await reread();
  }
  if (moved) {
    $("settlement").replaceChildren();  // a new deal starts: the last one's result no longer applies
    followLedger(false);
  }
  drawLedger();
}

// -- deals waiting for the network -----------------------------------------------------------------
// Each deal is kept (localStorage) with its Idempotency-Key and the number it is to get until the server
// has it: sent in order; a repeat of one that landed but whose answer was lost answers 200 with the first
// answer (nothing stored twice); a 409 (another phone recorded that deal first) stops the queue and asks.
const QUEUE_KEY = "taihu.queue";
const QUEUE_RETRY_MS = 4000;
let flushing = null;

function queued(id = state.ledger?.id) { return (state.queue || []).filter((item) => item.ledger === id); }

function newKey() {
  return [...crypto.getRandomValues(new Uint8Array(16))].map((b) => b.toString(16).padStart(2, "0")).join("");
}

function unqueue(item) {
  state.queue = state.queue.filter((other) => other !== item);
  remember(QUEUE_KEY, state.queue);
}

function flushQueue() {
  if (!flushing) flushing = sendQueued().finally(() => { flushing = null; });
  return flushing;
}

async function sendQueued() {
  while (state.ledger && !state.queueConflict) {
    const id = state.ledger.id;
    const item = queued(id)[0];
    if (!item) break;
    const reply = await call("POST", `ledgers/${encodeURIComponent(id)}/deals`, { ...item.table, deal: item.deal },
      { authorization: `Bearer ${ledgerToken()}`, "idempotency-key": item.key });
    if (reply.status === 0 || reply.status >= 500 || reply.status === 429) break;  // tried again later
    if (reply.status === 409 && reply.data.code === "deal_conflict") {
      state.queueConflict = { n: item.deal, count: reply.data.deal ?? state.ledger.data.deals.length };
      await reread();
      break;
    }
    unqueue(item);
    if (reply.ok) { clearErrors(); await tookDeal(reply.data); continue; }
    if (reply.status === 401 || reply.status === 403) showError("ledger-error", { detail: `${t("noToken")} (${reply.data.detail})` }, "", null);
    else showTableError("ledger-error", reply.data);
    for (const later of queued(id)) later.deal -= 1;  // the refused one takes no number
    remember(QUEUE_KEY, state.queue);
    break;
  }
  drawLedger();
}

function drawQueue() {
  const waiting = queued();
  const box = $("ledger-queue");
  box.hidden = !waiting.length;
  if (!waiting.length) { box.replaceChildren(); return; }
  const parts = [el("span", { text: waiting.length === 1 ? t("queuedOne") : fmt("queued", { n: waiting.length }) })];
  if (state.queueConflict) {
    const resend = el("button", { type: "button", text: t("queueResend") });
    const drop = el("button", { type: "button", text: t("queueDrop") });
    resend.addEventListener("click", () => {
      const next = state.ledger.data.deals.length + 1;
      queued().forEach((item, i) => { item.deal = next + i; });
      remember(QUEUE_KEY, state.queue);
      state.queueConflict = null;
      flushQueue();
    });
    drop.addEventListener("click", () => {
      for (const item of queued()) unqueue(item);
      state.queueConflict = null;
      drawLedger();
    });
    parts.push(el("p", { class: "error", text: fmt("queueConflict", state.queueConflict) }),
      el("div", { class: "row wrap actions" }, resend, drop));
  }
  box.replaceChildren(...parts);
}

// -- the table's room: invites, joining, the phones that record -------------------------------------
// The owner (the phone that made the ledger) invites: the join link `#join=<id>:<code>`, as text and
// as a QR code drawn here (static/qr.js). A phone that opens it is named, becomes a scorer device with
// its own token (kept like the owner's), and records deals; the owner sees the devices and revokes one.
const ROLES_KEY = "taihu.ledgerRoles";

function isOwner() { return Boolean(state.ledger && ledgerToken()) && state.roles?.[state.ledger.id] !== "scorer"; }
function ownerCall(method, path, body) {
  return call(method, `ledgers/${encodeURIComponent(state.ledger.id)}/${path}`, body, { authorization: `Bearer ${ledgerToken()}` });
}

function linkedJoin() {
  const found = /^([A-Za-z0-9_-]{16,64}):(.+)$/.exec(new URLSearchParams(location.hash.slice(1)).get("join") || "");
  return found ? { id: found[1], code: found[2] } : null;
}
function joinLink(id, code) { return `${location.origin}${location.pathname}#join=${encodeURIComponent(id)}:${encodeURIComponent(code)}`; }

function setupRoom() {
  $("room-invite").addEventListener("click", invite);
  $("join").addEventListener("submit", join);
}

async function invite() {
  const reply = await ownerCall("POST", "invites", {});
  if (!reply.ok) { showError("ledger-error", reply.data, "", null); return; }
  const link = joinLink(state.ledger.id, reply.data.code);
  $("room-link").href = link;
  $("room-link").textContent = link;
  drawQr($("room-qr"), link);
  $("room-join").hidden = false;
}

// The code as one SVG path, a module a unit, with the quiet zone of four modules a scanner needs.
function drawQr(box, text) {
  const dark = qrMatrix(text);
  if (!dark) { box.replaceChildren(); return; }
  const size = dark.length + 8;
  let path = "";
  dark.forEach((row, y) => row.forEach((on, x) => { if (on) path += `M${x + 4} ${y + 4}h1v1h-1z`; }));
  box.replaceChildren(svg("svg", { viewBox: `0 0 ${size} ${size}`, role: "img", "aria-label": t("roomQr"), class: "qr-code",
    "shape-rendering": "crispEdges" }, svg("rect", { width: size, height: size, fill: "#fff" }), svg("path", { d: path, fill: "#000" })));
}

// The owner's lists of the room (`state.devices`, `state.readLinks`): each read from its path and drawn
// again when it changed; it follows the stream's events of its kind.
const OWNER_LISTS = {
  devices: { path: "devices", field: "devices", draw: () => drawDevices() },
  readLinks: { path: "read-links", field: "read_links", draw: () => drawReadLinks() },
};

async function loadOwnerList(name) {
  if (!isOwner()) return;
  const { path, field, draw } = OWNER_LISTS[name];
  const id = state.ledger.id;
  const reply = await ownerCall("GET", path);
  if (!reply.ok || state.ledger?.id !== id) return;
  const known = JSON.stringify(state[name]);
  state[name] = reply.data[field];
  if (JSON.stringify(state[name]) !== known) draw();
}

// The button that revokes one entry of an owner's list, then says so (`note`) and reads the list again.
function revokeButton(name, entryId, label, note) {
  const revoke = el("button", { type: "button", text: t("roomRevoke"), "aria-label": `${t("roomRevoke")} ${label}` });
  revoke.addEventListener("click", async () => {
    const reply = await ownerCall("DELETE", `${OWNER_LISTS[name].path}/${encodeURIComponent(entryId)}`);
    if (!reply.ok && reply.status !== 404) { showError("ledger-error", reply.data, "", null); return; }
    state.ledgerNote = note;
    await loadOwnerList(name);
    drawLedger();
  });
  return revoke;
}

function drawDevices() {
  const list = $("room-devices");
  const devices = state.devices || [];
  if (!devices.length) { list.replaceChildren(el("li", { class: "hint", text: t("roomNoDevices") })); return; }
  list.replaceChildren(...devices.map((device) => {
    const revoke = revokeButton("devices", device.id, device.name, fmt("roomRevoked", { name: device.name }));
    return el("li", {}, el("span", { text: device.name }), revoke);
  }));
}

function madeWhen(iso) {
  const when = new Date(iso);
  if (Number.isNaN(when.getTime())) return iso;
  return when.toLocaleString(state.lang === "zh" ? "zh-CN" : "en", { dateStyle: "short", timeStyle: "short" });
}

function drawReadLinks() {
  const list = $("room-read-links");
  const links = state.readLinks || [];
  if (!links.length) { list.replaceChildren(el("li", { class: "hint", text: t("roomNoReadLinks") })); return; }
  list.replaceChildren(...links.map((link) => {
    const name = link.name ?? t("roomUnnamed");
    const label = `${t("roomReadLink")} ${name}`;
    const revoke = revokeButton("readLinks", link.id, label, fmt("roomLinkRevoked", { name }));
    return el("li", {}, el("span", {}, el("span", { text: name }), " ",
      el("span", { class: "hint", text: fmt("roomMade", { when: madeWhen(link.created) }) })), revoke);
  }));
}

function askToJoin(joining) {
  if (state.tokens[joining.id]) {  // this phone records here already
    history.replaceState(null, "", `#ledger=${encodeURIComponent(joining.id)}`);
    if (state.ledger?.id !== joining.id) openLedger(joining.id);
    return;
  }
  state.joining = joining;
  $("join").hidden = false;
  if (!$("join-name").value) $("join-name").value = t("joinDefault");
  if (state.ledger?.id !== joining.id) openLedger(joining.id);
}

async function join(event) {
  event.preventDefault();
  const { id, code } = state.joining;
  const reply = await call("POST", `ledgers/${encodeURIComponent(id)}/devices`, { invite: code, name: $("join-name").value.trim() });
  if (!reply.ok) { showError("ledger-error", reply.data, "", null); return; }
  clearErrors();
  state.tokens[id] = reply.data.token;
  state.roles[id] = "scorer";
  remember(TOKENS_KEY, state.tokens);
  remember(ROLES_KEY, state.roles);
  state.joining = null;
  $("join").hidden = true;
  history.replaceState(null, "", `#ledger=${encodeURIComponent(id)}`);
  await openLedger(id);
  state.ledgerNote = t("joined");
  drawLedger();
}

// -- language ------------------------------------------------------------------------------------
function applyLanguage() {
  document.documentElement.lang = state.lang === "zh" ? "zh-Hans" : "en";
  for (const node of document.querySelectorAll("[data-t]")) node.textContent = t(node.dataset.t);
  $("lang").textContent = state.lang === "zh" ? "English" : "中文";
  $("result").setAttribute("aria-label", state.lang === "zh" ? "结果 Result" : "Result");
  $("palette").setAttribute("aria-label", state.lang === "zh" ? "牌 Tiles" : "Tiles");
  drawRulesOptions();
  drawConditions();
  drawSeats();
  drawLedger();
  if (state.ledger) listen();
}

function drawRulesOptions() {
  const select = $("rules");
  const chosen = select.value;
  select.replaceChildren(...state.rules.map((r) => el("option", { value: r.name,
    text: state.lang === "zh" ? `${r.chinese} ${r.name} (${unitWord(r.unit)})` : `${r.name[0].toUpperCase()}${r.name.slice(1)} ${r.chinese} (${unitWord(r.unit)})` })));
  if (chosen) select.value = chosen;
}

function ruleSetChanged() {
  drawPalette();
  drawConditions();
  drawOptions();
  drawEvents();
}

// -- installed on a phone: the service worker --------------------------------------------------------
// sw.js keeps the page's files, so the page opens with no network (deals then wait in the queue). A
// browser without service workers, or a page not served over a secure origin, just goes without.
function installable() {
  if ("serviceWorker" in navigator) navigator.serviceWorker.register("sw.js").catch(() => {});
}

// -- start -----------------------------------------------------------------------------------------
async function start() {
  const saved = localStorage.getItem("taihu.lang");
  state.lang = saved || ((navigator.language || "en").toLowerCase().startsWith("zh") ? "zh" : "en");
  applyLanguage();
  const [rules, paletteData, openapi] = await Promise.all([
    call("GET", "rules"), call("GET", "palette.json"), call("GET", "openapi.json"),
  ]);
  state.rules = rules.ok ? rules.data : [];
  state.palette = paletteData.ok ? paletteData.data : {};
  // the document lists the /v1 paths; the page calls the same paths without the prefix (aliases)
  state.paths = new Set(Object.keys((openapi.ok && openapi.data.paths) || {}).map((p) => p.replace(/^\/v1\//, "/")));
  if (!rules.ok) showError("score-error", { detail: t("offline") }, "", null);
  drawRulesOptions();
  ruleSetChanged();
  drawSeats();
  $("waits").hidden = !state.paths.has("/waits");
  await setupLedger(state.paths);
  installable();

  $("rules").addEventListener("change", ruleSetChanged);
  $("hand").addEventListener("input", syncFromHand);
  $("hand").addEventListener("keydown", (event) => {
    if (event.key === "Enter" && !event.shiftKey) { event.preventDefault(); score(); }
  });
  for (const button of document.querySelectorAll("button.mode")) {
    button.addEventListener("click", () => setMode(state.mode === button.dataset.mode ? null : button.dataset.mode));
  }
  $("seat").addEventListener("change", () => edit((parts) => setKeyed(parts.conds, "seat", $("seat").value)));
  $("declare").addEventListener("change", () => edit((parts) => setKeyed(parts.conds, "declare", $("declare").value)));
  $("undo").addEventListener("click", () => { if (state.undo.length) { $("hand").value = state.undo.pop(); syncFromHand(); } });
  $("clear").addEventListener("click", () => edit((parts) => { parts.tiles = []; parts.win = null; parts.conds = []; }));
  $("score").addEventListener("click", score);
  $("waits").addEventListener("click", showWaits);
  $("copy").addEventListener("click", copyLink);
  $("settle").addEventListener("click", settle);
  $("dealer").addEventListener("change", drawSeats);
  $("add-event").addEventListener("click", () => addEvent());
  $("lang").addEventListener("click", () => {
    state.lang = state.lang === "zh" ? "en" : "zh";
    localStorage.setItem("taihu.lang", state.lang);
    applyLanguage();
    if (state.scoreShown) scored();  // the server's texts under the total, in the language now shown
  });
  window.addEventListener("hashchange", () => { if (readFragment()) score(); });
  if (readFragment()) await score();
  document.body.dataset.ready = "true";
}

document.addEventListener("DOMContentLoaded", start);
