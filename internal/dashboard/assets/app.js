// flowd's dashboard. Records hold attacker-controlled text (tool names,
// reasons, quarantined content): everything is put in the page as text
// (textContent, text nodes), never parsed as HTML.
"use strict";

let csrf = "";

// el builds an element; string children become text nodes.
function el(tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else if (k === "class") e.className = v;
    else e.setAttribute(k, v);
  }
  for (const c of children.flat(Infinity)) {
    if (c === undefined || c === null || c === false) continue;
    e.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return e;
}

function svg(tag, attrs, ...children) {
  const e = document.createElementNS("http://www.w3.org/2000/svg", tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v);
  }
  for (const c of children) e.append(c instanceof Node ? c : document.createTextNode(String(c)));
  return e;
}

async function api(path, opts) {
  const resp = await fetch(path, Object.assign({ credentials: "same-origin" }, opts || {}));
  if (!resp.ok) {
    const text = await resp.text();
    throw new Error(resp.status + ": " + text.trim());
  }
  return resp;
}
const getJSON = async (path) => (await api(path)).json();

async function post(path, body) {
  const resp = await api(path, {
    method: "POST",
    headers: { "Content-Type": "application/json", "X-Flowd-CSRF": csrf },
    body: JSON.stringify(body),
  });
  return resp.json();
}

function fmtTime(t) {
  const d = new Date(t);
  return isNaN(d) ? "" : d.toLocaleString();
}

// severity says how a record is highlighted: blocked, asked, warned or none.
function severity(r) {
  if (r.decision === "deny" || r.verdict === "block" || r.verdict === "respond") return "blocked";
  if (r.decision === "ask") return "asked";
  if (r.decision === "warn" || r.verdict === "replace") return "warned";
  return "";
}

function recordRow(r, onclick) {
  const what = [r.server, r.tool].filter(Boolean).join("/") || r.method || "";
  return el("tr", { class: [severity(r), onclick ? "clickable" : ""].join(" ").trim(), "data-id": r.id, onclick },
    el("td", {}, String(r.id)),
    el("td", {}, fmtTime(r.time)),
    el("td", {}, r.type),
    el("td", {}, what),
    el("td", {}, r.decision || ""),
    el("td", {}, r.verdict || ""),
    el("td", {}, r.risk_level || ""),
    el("td", { class: "reason" }, r.reason || ""));
}

function recordTable(id) {
  return el("table", { id },
    el("thead", {}, el("tr", {}, ["ID", "time", "type", "server/tool", "decision", "verdict", "risk", "reason"].map((h) => el("th", {}, h)))),
    el("tbody"));
}

// ---- banners (from diagnostics) ----

const bannerIDs = new Set(["hooks_missing", "shim_unprotected", "no_shims", "servers_unwrapped"]);

async function loadBanners() {
  const box = document.getElementById("banners");
  let recs;
  try {
    recs = (await getJSON("/api/v1/diagnostics")).recommendations || [];
  } catch (e) {
    box.replaceChildren(el("div", { class: "banner error" }, "cannot read diagnostics: " + e.message));
    return;
  }
  const dismissed = JSON.parse(sessionStorage.getItem("dismissed") || "[]");
  box.replaceChildren(...recs
    .filter((r) => (bannerIDs.has(r.id) || r.severity === "error") && !dismissed.includes(r.id + r.message))
    .map((r) => {
      const b = el("div", { class: "banner " + r.severity, "data-rec": r.id },
        el("span", {}, r.message),
        r.fix ? el("span", {}, "fix: ", el("code", {}, r.fix)) : null);
      b.append(el("button", {
        class: "dismiss", onclick: () => {
          dismissed.push(r.id + r.message);
          sessionStorage.setItem("dismissed", JSON.stringify(dismissed));
          b.remove();
        },
      }, "dismiss"));
      return b;
    }));
}

// ---- Live ----

let stream = null;

async function pageLive(main) {
  const table = recordTable("live");
  main.append(el("h2", {}, "Live"), el("p", { class: "muted" }, "Every decision as flowd makes it; blocked and asked ones are highlighted."), table);
  const body = table.tBodies[0];
  const show = (r) => {
    body.prepend(recordRow(r, () => { location.hash = "#activity/" + r.id; }));
    while (body.rows.length > 500) body.deleteRow(-1);
  };
  let last = 0;
  try {
    const recent = await getJSON("/api/v1/activity?limit=20");
    recent.reverse().forEach((r) => { show(r); last = Math.max(last, r.id); });
  } catch (e) {
    main.append(el("p", { class: "error-text" }, e.message));
  }
  stream = new EventSource("/api/v1/events" + (last ? "?last_event_id=" + last : ""));
  const conn = document.getElementById("conn");
  stream.addEventListener("open", () => { conn.textContent = "live"; });
  stream.addEventListener("error", () => { conn.textContent = "reconnecting…"; });
  stream.addEventListener("activity", (ev) => {
    try { show(JSON.parse(ev.data)); } catch (e) { /* a malformed event is skipped */ }
  });
  stream.addEventListener("lagged", () => { conn.textContent = "fell behind; reconnecting"; });
}

// ---- Activity ----

const filterFields = [
  ["type", ["", "tool_call", "message", "tools_list", "hook_evaluation", "flow_summary", "shim_connect", "shim_disconnect", "unjudged"]],
  ["risk_level", ["", "low", "medium", "high", "critical"]],
  ["flow_type", ["", "internal→internal", "internal→external", "external→internal", "external→external"]],
  ["server"], ["tool"], ["session"], ["since"], ["until"],
];

async function pageActivity(main, arg) {
  const form = el("form", { class: "filters", id: "filters" });
  for (const [name, options] of filterFields) {
    const input = options
      ? el("select", { name }, options.map((o) => el("option", { value: o }, o || "any")))
      : el("input", { name, placeholder: name === "since" || name === "until" ? "2026-11-27T09:00:00Z" : "" });
    form.append(el("label", {}, name, input));
  }
  form.append(el("button", { type: "submit" }, "Search"));
  const table = recordTable("activity");
  const more = el("button", { id: "more", hidden: true }, "Next page");
  const exports = el("p", { id: "exports" });
  const detail = el("div", { id: "detail" });
  main.append(el("h2", {}, "Activity"), form, exports, table, more, detail);

  const params = () => {
    const q = new URLSearchParams();
    for (const [k, v] of new FormData(form)) if (v) q.set(k, v);
    return q;
  };
  let next = null;
  const load = async (url, append) => {
    let resp;
    try {
      resp = await api(url);
    } catch (e) {
      detail.replaceChildren(el("p", { class: "error-text" }, e.message));
      return;
    }
    const recs = await resp.json();
    const body = table.tBodies[0];
    if (!append) body.replaceChildren();
    recs.forEach((r) => body.append(recordRow(r, () => explain(detail, r.id))));
    const link = resp.headers.get("Link") || "";
    const m = link.match(/<([^>]+)>;\s*rel="next"/);
    next = m ? m[1] : null;
    more.hidden = !next;
  };
  const search = () => {
    const q = params();
    q.set("limit", "50");
    const ex = new URLSearchParams(params());
    ex.set("include_flows", "true");
    exports.replaceChildren("Export: ",
      el("a", { href: "/api/v1/activity/export?format=jsonl&" + ex, download: "flowd-activity.jsonl" }, "JSON lines"), " · ",
      el("a", { href: "/api/v1/activity/export?format=csv&" + ex, download: "flowd-activity.csv" }, "CSV"));
    load("/api/v1/activity?" + q, false);
  };
  form.addEventListener("submit", (ev) => { ev.preventDefault(); search(); });
  more.addEventListener("click", () => { if (next && next.startsWith("/api/v1/activity?")) load(next, true); });
  search();
  if (arg) explain(detail, arg);
}

// explain shows one record whole: its decision and the evidence behind it.
async function explain(box, id) {
  let r;
  try {
    r = await getJSON("/api/v1/activity/" + encodeURIComponent(id));
  } catch (e) {
    box.replaceChildren(el("p", { class: "error-text" }, e.message));
    return;
  }
  const rows = [["record", r.id], ["time", fmtTime(r.time)], ["type", r.type], ["session", r.session], ["server", r.server],
    ["tool", r.tool], ["method", r.method], ["decision", r.decision], ["verdict", r.verdict], ["reason", r.reason],
    ["risk", r.risk_level], ["flow", r.flow_type]].filter(([, v]) => v !== undefined && v !== "");
  let details = "";
  if (r.details) details = JSON.stringify(r.details, null, 2);
  box.replaceChildren(el("div", { class: "panel rec", id: "explain" },
    el("h3", {}, "Record " + r.id),
    el("table", {}, rows.map(([k, v]) => el("tr", {}, el("th", {}, k), el("td", {}, String(v))))),
    r.explanation ? el("h4", {}, "Why (what flowd explain says)") : null,
    r.explanation ? el("pre", { class: "explanation" }, r.explanation) : null,
    details ? el("h4", {}, "Evidence (flow, classification, injection findings)") : null,
    details ? el("pre", {}, details) : null));
}

// ---- Sessions ----

async function pageSessions(main, arg) {
  const list = el("ul", { id: "session-list" });
  const graph = el("div", { class: "graph", id: "graph" });
  const detail = el("div", { id: "edge-detail" });
  main.append(el("h2", {}, "Sessions"), list, graph, detail);
  const sessions = new Set();
  try {
    const st = await getJSON("/api/v1/status");
    (st.sessions || []).forEach((s) => sessions.add(s));
    (await getJSON("/api/v1/activity?limit=500")).forEach((r) => r.session && sessions.add(r.session));
  } catch (e) {
    list.append(el("li", { class: "error-text" }, e.message));
  }
  if (!sessions.size) list.append(el("li", { class: "muted" }, "no sessions yet"));
  for (const s of sessions) {
    list.append(el("li", {}, el("a", { href: "#sessions/" + encodeURIComponent(s) }, s)));
  }
  if (arg) drawSession(graph, detail, decodeURIComponent(arg));
}

async function drawSession(box, detail, session) {
  let g;
  try {
    g = await getJSON("/api/v1/sessions/" + encodeURIComponent(session) + "/graph");
  } catch (e) {
    box.replaceChildren(el("p", { class: "error-text" }, e.message));
    return;
  }
  const sources = [...new Set(g.edges.map((e) => e.from))];
  const dests = [...new Set(g.edges.map((e) => e.to))];
  const rowH = 50, w = 900, boxW = 280;
  const h = Math.max(sources.length, dests.length, 1) * rowH + 40;
  const pic = svg("svg", { width: w, height: h, viewBox: `0 0 ${w} ${h}`, id: "session-graph" });
  const y = (i) => 30 + i * rowH;
  const classOf = Object.fromEntries(g.nodes.map((n) => [n.id, n.class || ""]));
  g.edges.forEach((e, i) => {
    const y1 = y(sources.indexOf(e.from)) + 15, y2 = y(dests.indexOf(e.to)) + 15;
    const path = svg("path", {
      d: `M ${20 + boxW} ${y1} C ${w / 2} ${y1}, ${w / 2} ${y2}, ${w - 20 - boxW} ${y2}`,
      class: "edge " + (e.decision || "none"), "data-edge": i, "data-decision": e.decision || "",
      onclick: () => showEdge(detail, e),
    }, svg("title", {}, `${e.from} → ${e.to}: ${e.decision || "no decision"}`));
    pic.append(path);
  });
  const node = (id, x, i) => svg("g", { class: "node " + classOf[id] },
    svg("rect", { x, y: y(i), width: boxW, height: 30, rx: 4 }),
    svg("text", { x: x + 8, y: y(i) + 19 }, `${id} (${classOf[id] || "?"})`));
  sources.forEach((s, i) => pic.append(node(s, 20, i)));
  dests.forEach((d, i) => pic.append(node(d, w - 20 - boxW, i)));
  box.replaceChildren(el("h3", {}, "Session " + g.session),
    el("p", { class: "muted" }, "Sources (left) → destinations (right); red edges were denied, orange asked, yellow warned. Click an edge."),
    g.edges.length ? pic : el("p", { class: "muted" }, "no data moved between tools in this session"));
}

function showEdge(box, e) {
  const rows = [["from", `${e.from} (${e.from_class || "?"})`], ["to", e.to], ["flow", e.flow_type], ["decision", e.decision || "none"],
    ["risk", e.risk], ["calls", e.calls], ["matched by", (e.kinds || []).join(", ")], ["secret types", (e.secrets || []).join(", ") || "none"]];
  // What matched, as flowd knows it: a fingerprint, a secret's type, a
  // short value's kind. The data itself is never in the evidence.
  const matches = (e.matches || []).map((m) => el("tr", { class: "match" },
    el("td", {}, m.kind),
    el("td", {}, m.secret ? "secret " + m.secret + (m.encoding ? " (" + m.encoding + ")" : "")
      : m.value ? "a " + m.value : el("code", { class: "hash" }, m.hash || "")),
    el("td", {}, m.length ? m.length + " bytes" : ""),
    el("td", {}, el("a", { href: "#activity/" + m.record }, String(m.record)))));
  box.replaceChildren(el("div", { class: "panel", id: "edge" },
    el("h3", {}, "Edge"),
    el("table", {}, rows.map(([k, v]) => el("tr", {}, el("th", {}, k), el("td", {}, String(v ?? ""))))),
    el("h4", {}, "What matched (fingerprints and secret types, never the data)"),
    el("table", { id: "edge-matches" },
      el("tr", {}, ["kind", "fingerprint or type", "length", "record"].map((h) => el("th", {}, h))), matches),
    e.more_matches ? el("p", { class: "muted" }, `and ${e.more_matches} more`) : null,
    el("p", {}, "Records: ", (e.records || []).map((id) => [el("a", { href: "#activity/" + id }, String(id)), " "]))));
}

// ---- Quarantine and pins ----

async function pageQuarantine(main) {
  const qbox = el("div", { id: "quarantine" });
  const pbox = el("div", { id: "pins" });
  main.append(el("h2", {}, "Quarantine"), qbox, el("h2", {}, "Tool pins"), pbox);
  try {
    const items = await getJSON("/api/v1/quarantine");
    if (!items.length) qbox.append(el("p", { class: "muted" }, "nothing quarantined"));
    items.forEach((it) => qbox.append(quarantineItem(it)));
  } catch (e) {
    qbox.append(el("p", { class: "error-text" }, e.message));
  }
  try {
    const servers = await getJSON("/api/v1/pins");
    if (!servers.length) pbox.append(el("p", { class: "muted" }, "no pinned servers"));
    servers.forEach((s) => pbox.append(pinServer(s)));
  } catch (e) {
    pbox.append(el("p", { class: "error-text" }, e.message));
  }
}

// passphraseForm asks the user for the approval passphrase: the page
// never keeps it, so nothing a script does can approve on its own.
function passphraseForm(label, act, cls) {
  const input = el("input", { type: "password", autocomplete: "off", placeholder: "approval passphrase" });
  const out = el("span");
  const form = el("form", { class: cls }, input, el("button", { type: "submit" }, label), " ", out);
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    if (!input.value) { out.textContent = "type your approval passphrase"; return; }
    try {
      out.textContent = await act(input.value);
    } catch (e) {
      out.textContent = e.message;
    }
    input.value = "";
  });
  return form;
}

function quarantineItem(it) {
  const content = el("div");
  const box = el("div", { class: "panel", "data-quarantine": it.id },
    el("h3", {}, `${it.id}: ${it.server}/${it.tool || it.method} — score ${Number(it.score).toFixed(2)}`),
    el("p", {}, fmtTime(it.time), it.released ? " · released " + fmtTime(it.released) : ""),
    // What was found, without the excerpts: the content's own words wait
    // for "Show content" and the approval passphrase, as a release does
    // (a script on this page, or any process of the user's, must not read
    // what was withheld from the model).
    el("ul", {}, (it.detections || []).map((d) => el("li", {}, `${d.rule} (${d.tier}, severity ${d.severity}) in ${d.field}`))),
    passphraseForm("Show content", async (pass) => {
      const full = await post("/api/v1/quarantine/" + encodeURIComponent(it.id) + "/view", { passphrase: pass });
      content.replaceChildren(el("p", { class: "error-text" }, "Withheld content, shown as text. It is untrusted: do not follow instructions in it."),
        el("pre", { class: "untrusted" }, full.content || ""),
        el("ul", {}, (full.detections || []).map((d) => el("li", {}, `${d.rule}: ${d.excerpt || ""}`))));
      return "shown below";
    }, "show"),
    content);
  if (!it.released) {
    box.append(passphraseForm("Release", async (pass) => {
      await post("/api/v1/quarantine/" + encodeURIComponent(it.id) + "/release", { passphrase: pass });
      return "released";
    }));
  }
  return box;
}

// lineDiff marks the lines of b not in a (+) and of a not in b (-).
function lineDiff(a, b) {
  const al = a.split("\n"), bl = b.split("\n");
  const as = new Set(al), bs = new Set(bl);
  return [...al.filter((l) => !bs.has(l)).map((l) => el("div", { class: "diff-del" }, "- " + l)),
    ...bl.filter((l) => !as.has(l)).map((l) => el("div", { class: "diff-add" }, "+ " + l))];
}

const pretty = (raw) => JSON.stringify(raw, null, 2) || "";

function pinServer(s) {
  const box = el("div", { class: "panel" },
    el("h3", {}, s.name),
    el("p", { class: "muted" }, (s.command || []).join(" ")),
    el("p", {}, Object.keys(s.pinned || {}).length + " tools pinned"));
  const pending = Object.entries(s.pending || {});
  for (const [name, tool] of pending) {
    const old = (s.pinned || {})[name];
    box.append(el("h4", {}, (old ? "changed: " : "new: ") + name),
      el("pre", {}, old ? lineDiff(pretty(old.definition), pretty(tool.definition)) : pretty(tool.definition)));
  }
  if (pending.length) {
    box.append(passphraseForm("Approve all pending tools of " + s.name, async (pass) => {
      const out = await post("/api/v1/pins/approve", { server: s.name, passphrase: pass });
      return "approved: " + (out.tools || []).join(", ");
    }));
  }
  return box;
}

// ---- Status ----

// passphraseRow says whether the approval passphrase is set, when and by
// which process: a passphrase the user did not set shows here.
function passphraseRow(st) {
  if (!st.approval_passphrase_set) return "not set: quit your agents, then run flowd passphrase set in a terminal";
  if (!st.approval_passphrase_by) return "set";
  return `set ${fmtTime(st.approval_passphrase_since)} by ${st.approval_passphrase_by} (not you? see flowd doctor)`;
}

async function pageStatus(main) {
  main.append(el("h2", {}, "Status"));
  try {
    const st = await getJSON("/api/v1/status");
    const rows = [["version", st.version], ["pid", st.pid], ["up since", fmtTime(st.started)], ["socket", st.socket],
      ["data dir", st.data_dir], ["security coverage", st.security_coverage],
      ["hooks active", Object.keys(st.hooks_active || {}).join(", ") || "none"],
      ["approval passphrase", passphraseRow(st)], ["sessions", (st.sessions || []).length]];
    main.append(el("table", { id: "status" }, rows.map(([k, v]) => el("tr", {}, el("th", {}, k), el("td", {}, String(v ?? ""))))));
    main.append(el("h3", {}, "Service"), el("table", { id: "service" }, kv(serviceRows(st.service))));
    if (st.config) {
      main.append(el("h3", {}, "Config in effect"),
        el("p", {}, el("code", {}, st.config.file || "(defaults)"), ` — ${st.config.mode} flowd; all of it: `, el("code", {}, "flowd config show --effective")),
        el("table", { id: "config" }, kv(Object.entries(st.config.settings || {}).sort(([a], [b]) => a.localeCompare(b)))));
    }
    if (st.config_held) {
      main.append(el("p", { class: "error-text" }, `A config change that lowers protection is held back since ${fmtTime(st.config_held.since)}: `,
        el("code", {}, "flowd config apply")));
    }
    const exports = exportRows(st);
    if (exports.length) {
      main.append(el("h3", {}, "Export and feeds"), el("table", { id: "exports-state" },
        exports.map(([k, v, bad]) => el("tr", { class: bad ? "blocked" : "" }, el("th", {}, k), el("td", {}, v)))));
    }
    main.append(el("h3", {}, "Shims"), el("table", {},
      el("tr", {}, ["server", "session", "pid", "command", "messages"].map((h) => el("th", {}, h))),
      (st.shims || []).map((s) => el("tr", {}, el("td", {}, s.server), el("td", {}, s.session), el("td", {}, String(s.pid)),
        el("td", {}, (s.command || []).join(" ")), el("td", {}, String(s.messages))))));
    main.append(el("h3", {}, "Activity store"), el("pre", {}, pretty(st.activity)));
  } catch (e) {
    main.append(el("p", { class: "error-text" }, e.message));
  }
  main.append(el("h3", {}, "Recommendations"));
  try {
    const recs = (await getJSON("/api/v1/diagnostics")).recommendations || [];
    main.append(el("table", { id: "recommendations" }, recs.map((r) => el("tr", { class: r.severity === "error" ? "blocked" : "" },
      el("td", {}, r.severity), el("td", {}, r.message), el("td", {}, r.fix ? el("code", {}, r.fix) : "")))));
    if (!recs.length) main.append(el("p", { class: "muted" }, "nothing to act on"));
  } catch (e) {
    main.append(el("p", { class: "error-text" }, e.message));
  }
}

const kv = (rows) => rows.map(([k, v]) => el("tr", {}, el("th", {}, k), el("td", {}, String(v ?? ""))));

// serviceRows says how flowd runs and what the service manager says of
// flowd's service.
function serviceRows(svc) {
  if (!svc) return [["service", "not reported by this flowd"]];
  const rows = [["started by", svc.started_by || "not reported"]];
  if (!svc.manager) {
    rows.push(["service manager", "none usable" + (svc.problem ? ": " + svc.problem : "")]);
    return rows;
  }
  rows.push(["service manager", svc.manager + (svc.scope ? " (" + svc.scope + ")" : "")]);
  if (!svc.installed) {
    rows.push(["service", "not installed (flowd install sets it up)"]);
  } else {
    rows.push(["service", [svc.enabled ? "enabled" : "disabled", svc.running ? "running" : "not running"].join(", ")]);
    if (svc.unit) rows.push(["unit", svc.unit]);
  }
  if (svc.problem) rows.push(["problem", svc.problem]);
  return rows;
}

// exportRows are the exporters' and attack feeds' states, each as
// [name, state in words, whether it needs attention].
function exportRows(st) {
  const rows = [];
  for (const x of [st.export, st.otlp_export]) {
    if (!x) continue;
    const state = !x.enabled ? "off" : x.connected ? "connected" : "NOT CONNECTED";
    const spool = x.spool || {};
    const dropped = (x.dropped || 0) + (spool.dropped || 0);
    rows.push([`${x.name} ${x.protocol || ""} ${x.endpoint || ""}`.trim(),
      `${state}; ${x.queued} queued of ${x.queue_limit || "?"}, ${spool.records || 0} spooled, ${x.sent} sent, ${dropped} dropped` +
      (x.rejected ? `, ${x.rejected} rejected` : "") + (x.spool_error ? `; NO SPOOL: ${x.spool_error}` : "") +
      (x.last_error ? `; last error ${fmtTime(x.last_error_at)}: ${x.last_error}` : ""), x.enabled && (!x.connected || dropped > 0 || !!x.spool_error)]);
  }
  for (const f of st.feeds || []) {
    const good = f.taken ? `last good: ${f.prints} prints, sequence ${f.seq}, taken ${fmtTime(f.taken)}` : "nothing taken yet";
    rows.push(["feed " + f.url, good + (f.error ? `; last pull refused (${f.refused} since start): ${f.error}` : ""), !!f.error]);
  }
  return rows;
}

// ---- routing ----

const pages = { live: pageLive, sessions: pageSessions, activity: pageActivity, quarantine: pageQuarantine, status: pageStatus };

function route() {
  const [name, ...rest] = (location.hash.slice(1) || "live").split("/");
  const page = pages[name] ? name : "live";
  if (stream) { stream.close(); stream = null; document.getElementById("conn").textContent = ""; }
  document.querySelectorAll("nav a").forEach((a) => a.classList.toggle("active", a.id === "nav-" + page));
  const main = document.getElementById("page");
  main.replaceChildren();
  main.dataset.page = page;
  pages[page](main, rest.join("/"));
}

async function start() {
  try {
    csrf = (await getJSON("/ui/session")).csrf;
  } catch (e) {
    document.getElementById("page").replaceChildren(el("p", { class: "error-text" }, e.message));
    return;
  }
  window.addEventListener("hashchange", route);
  loadBanners();
  route();
}

start();
