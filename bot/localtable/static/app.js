// The local table's page: a Discord-like client for the in-process Discord
// stand-in. It shows what the bot sent (content, embeds, components,
// reactions) as Discord would, and sends what a player does to the
// stand-in, which passes it to the bot as Discord would. No libraries.
"use strict";

const $ = (sel, root = document) => root.querySelector(sel);
const el = (tag, attrs = {}, ...kids) => {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k === "class") e.className = v;
    else if (k === "text") e.textContent = v;
    else if (k === "html") e.innerHTML = v;
    else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else if (k === "dataset") Object.assign(e.dataset, v);
    else e.setAttribute(k, v === true ? "" : v);
  }
  for (const kid of kids.flat()) if (kid !== null && kid !== undefined && kid !== false) e.append(kid);
  return e;
};

// Discord's numbers.
const OPT = { SUB: 1, GROUP: 2, STRING: 3, INTEGER: 4, BOOLEAN: 5, USER: 6, CHANNEL: 7, ROLE: 8, MENTIONABLE: 9, NUMBER: 10 };
const CMD = { CHAT: 1, USER: 2, MESSAGE: 3 };
const COMP = { ROW: 1, BUTTON: 2, SELECT: 3 };
const BUTTON_STYLE = { 1: "primary", 2: "secondary", 3: "success", 4: "danger", 5: "link", 6: "secondary" };
const TOKEN_LIFE = 15 * 60 * 1000;
const QUICK_EMOJI = ["🎭", "👍", "👎", "❤️", "😂", "😮", "😢", "🎉", "🔥", "👀", "✅", "❌"];

const store = {
  get(k) { return sessionStorage.getItem(k) ?? localStorage.getItem(k); },
  set(k, v) { sessionStorage.setItem(k, v); localStorage.setItem(k, v); },
};

const app = {
  user: store.get("cardtable.user") || "",
  channel: new URLSearchParams(location.hash.slice(1)).get("c") || store.get("cardtable.channel") || "",
  state: null,
  fetching: false,
  again: false,
  nodes: new Map(), // message id → {key, node}
  dismissed: new Set(JSON.parse(localStorage.getItem("cardtable.dismissed") || "[]")),
  busy: 0,
  lastChange: 0, // when the table last told of a change
};

// ---- talking to the table -------------------------------------------------

async function post(path, body) {
  const r = await fetch(path, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  if (!r.ok) throw new Error((await r.text()) || r.statusText);
  return r.json();
}

async function refresh() {
  if (app.fetching) { app.again = true; return; }
  app.fetching = true;
  try {
    do {
      app.again = false;
      const want = { user: app.user, channel: app.channel };
      const r = await fetch("/api/state?" + new URLSearchParams(want));
      if (!r.ok) throw new Error(r.statusText);
      const st = await r.json();
      // The player or channel changed meanwhile: this answer is for another view.
      if (want.user !== app.user || want.channel !== app.channel) { app.again = true; continue; }
      app.state = st;
      render();
    } while (app.again);
  } catch (e) {
    // The table is away (stopped or restarting): the event stream
    // reconnects and fetches again.
    console.warn("local table unreachable:", e);
    $("#offline").hidden = false;
  } finally {
    app.fetching = false;
  }
}

function listen() {
  const es = new EventSource("/api/events");
  es.onmessage = () => { app.lastChange = Date.now(); refresh(); };
  es.onopen = () => { $("#offline").hidden = true; refresh(); };
  es.onerror = () => { $("#offline").hidden = false; };
}

// act sends one thing the current player does and shows how it went.
async function act(body, control) {
  if (!app.user) { notice("Pick who you are first: add a player above."); return null; }
  body.user = app.user;
  body.channel = body.channel || app.channel;
  app.busy++;
  document.body.dataset.busy = app.busy;
  if (control) control.classList.add("busy");
  try {
    const res = await post("/api/act", body);
    if (res.error) notice(res.error);
    else if (res.failed) notice("This interaction failed");
    else clearNotice();
    if (res.modal) openModal(res.modal);
    return res;
  } catch (e) {
    notice(String(e.message || e));
    return null;
  } finally {
    if (control) control.classList.remove("busy");
    app.busy--;
    document.body.dataset.busy = app.busy;
    await refresh();
  }
}

let noticeTimer;
function notice(text, info) {
  const n = $("#notice");
  n.textContent = text;
  n.className = info ? "info" : "";
  n.hidden = false;
  clearTimeout(noticeTimer);
  noticeTimer = setTimeout(clearNotice, 10000);
}
function clearNotice() { $("#notice").hidden = true; }

// ---- names ----------------------------------------------------------------

function memberName(id) {
  const s = app.state;
  if (!s) return id;
  if (s.bot && s.bot.id === id) return s.bot.name;
  const m = s.members.find((m) => m.id === id);
  return m ? m.name : "unknown-user";
}
function channelName(id) {
  const c = app.state && app.state.channels.find((c) => c.id === id);
  return c ? c.name : "unknown-channel";
}
function colorOf(id) {
  const colors = ["#5865f2", "#3ba55c", "#faa61a", "#ed4245", "#eb459e", "#9b59b6", "#1abc9c", "#e67e22"];
  let h = 0;
  for (const ch of id) h = (h * 31 + ch.charCodeAt(0)) >>> 0;
  return colors[h % colors.length];
}

// ---- markdown, as Discord reads it ----------------------------------------

function esc(s) {
  return s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
}

function markdown(src, embed) {
  if (!src) return "";
  const out = [];
  const parts = src.split(/(```[\s\S]*?```)/g);
  for (const p of parts) {
    if (p.length >= 6 && p.startsWith("```") && p.endsWith("```")) {
      let body = p.slice(3, -3);
      const nl = body.indexOf("\n");
      if (nl >= 0 && /^[\w+-]*$/.test(body.slice(0, nl))) body = body.slice(nl + 1);
      out.push("<pre><code>" + esc(body.replace(/\n$/, "")) + "</code></pre>");
    } else {
      out.push(blocks(p, embed));
    }
  }
  return out.join("");
}

function blocks(text, embed) {
  const lines = text.split("\n");
  const out = [];
  let quote = [];
  const flush = () => {
    if (quote.length) out.push("<blockquote>" + quote.join("<br>") + "</blockquote>");
    quote = [];
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    let m;
    if ((m = /^>>> ?(.*)$/.exec(line))) {
      flush();
      out.push("<blockquote>" + [m[1], ...lines.slice(i + 1)].map((l) => inline(l, embed)).join("<br>") + "</blockquote>");
      return out.join("");
    }
    if ((m = /^> ?(.*)$/.exec(line))) { quote.push(inline(m[1], embed)); continue; }
    flush();
    let html;
    if ((m = /^(#{1,3}) (.+)$/.exec(line))) html = `<span class="h${m[1].length}">${inline(m[2], embed)}</span>`;
    else if ((m = /^-# (.+)$/.exec(line))) html = `<span class="sub">${inline(m[1], embed)}</span>`;
    else if ((m = /^(\s*)[-*] (.+)$/.exec(line))) html = `${m[1]}• ${inline(m[2], embed)}`;
    else html = inline(line, embed);
    out.push(html + (i < lines.length - 1 && !/^<span class="(h\d|sub)"/.test(html) ? "\n" : ""));
  }
  flush();
  return out.join("");
}

function inline(text, embed) {
  // A backslash shows the punctuation after it as is (the bot escapes names).
  const lit = [];
  text = text.replace(/\\([^A-Za-z0-9\s])/g, (_, c) => `\u0001${lit.push(c) - 1}\u0001`);
  return text.split(/(`[^`\n]+`)/g).map((p) =>
    p.length > 2 && p.startsWith("`") && p.endsWith("`") ? "<code>" + esc(p.slice(1, -1)) + "</code>" : styled(esc(p), embed)
  ).join("").replace(/\u0001(\d+)\u0001/g, (_, i) => esc(lit[Number(i)]));
}

function styled(s, embed) {
  const links = [];
  const keep = (html) => { links.push(html); return `\u0000${links.length - 1}\u0000`; };
  // Masked links (embeds), then bare links, kept aside from the styling.
  if (embed) {
    s = s.replace(/\[([^\]\n]+)\]\((https?:\/\/[^\s)]+)\)/g, (_, t, u) => keep(`<a href="${u}" target="_blank" rel="noreferrer">${t}</a>`));
  }
  s = s.replace(/&lt;(https?:\/\/[^\s&]+)&gt;|(https?:\/\/[^\s<]+[^\s<.,:;"')\]])/g, (_, a, b) => {
    const u = a || b;
    return keep(`<a href="${u}" target="_blank" rel="noreferrer">${u}</a>`);
  });
  s = s
    .replace(/&lt;@!?(\d+)&gt;/g, (_, id) => keep(`<span class="mention" data-user="${id}">@${esc(memberName(id))}</span>`))
    .replace(/&lt;@&amp;(\d+)&gt;/g, () => keep(`<span class="mention">@role</span>`))
    .replace(/&lt;#(\d+)&gt;/g, (_, id) => keep(`<a class="mention" href="#c=${id}" data-channel="${id}">#${esc(channelName(id))}</a>`))
    .replace(/&lt;t:(-?\d+)(?::([tTdDfFR]))?&gt;/g, (_, t, f) => keep(timestamp(Number(t), f || "f")))
    .replace(/\*\*\*(.+?)\*\*\*/g, "<strong><em>$1</em></strong>")
    .replace(/\*\*(.+?)\*\*/g, "<strong>$1</strong>")
    .replace(/__(.+?)__/g, "<u>$1</u>")
    .replace(/(^|[^\w*])\*(?!\s)(.+?)\*(?!\w)/g, "$1<em>$2</em>")
    .replace(/(^|[^\w])_(?!\s)(.+?)_(?!\w)/g, "$1<em>$2</em>")
    .replace(/~~(.+?)~~/g, "<s>$1</s>")
    .replace(/\|\|(.+?)\|\|/g, '<span class="spoiler" title="spoiler">$1</span>');
  return s.replace(/\u0000(\d+)\u0000/g, (_, i) => links[Number(i)]);
}

function timestamp(sec, f) {
  const d = new Date(sec * 1000);
  const title = d.toLocaleString(undefined, { dateStyle: "full", timeStyle: "short" });
  const text = {
    t: () => d.toLocaleTimeString(undefined, { timeStyle: "short" }),
    T: () => d.toLocaleTimeString(undefined, { timeStyle: "medium" }),
    d: () => d.toLocaleDateString(undefined, { dateStyle: "short" }),
    D: () => d.toLocaleDateString(undefined, { dateStyle: "long" }),
    f: () => d.toLocaleString(undefined, { dateStyle: "long", timeStyle: "short" }),
    F: () => d.toLocaleString(undefined, { dateStyle: "full", timeStyle: "short" }),
    R: () => relative(d),
  }[f]();
  return `<time class="ts" datetime="${d.toISOString()}" title="${esc(title)}"${f === "R" ? ` data-rel="${sec}"` : ""}>${esc(text)}</time>`;
}

function relative(d) {
  const diff = (d.getTime() - Date.now()) / 1000;
  const rtf = new Intl.RelativeTimeFormat(undefined, { numeric: "auto" });
  const abs = Math.abs(diff);
  if (abs < 60) return rtf.format(Math.round(diff), "second");
  if (abs < 3600) return rtf.format(Math.round(diff / 60), "minute");
  if (abs < 86400) return rtf.format(Math.round(diff / 3600), "hour");
  if (abs < 86400 * 30) return rtf.format(Math.round(diff / 86400), "day");
  if (abs < 86400 * 365) return rtf.format(Math.round(diff / (86400 * 30)), "month");
  return rtf.format(Math.round(diff / (86400 * 365)), "year");
}

// Relative timestamps count down live, as in Discord.
setInterval(() => {
  for (const t of document.querySelectorAll("time[data-rel]")) {
    t.textContent = relative(new Date(Number(t.dataset.rel) * 1000));
  }
}, 1000);

// ---- rendering ------------------------------------------------------------

function render() {
  const s = app.state;
  $("#banner").hidden = !s.exposed;
  if (!s.members.some((m) => m.id === app.user)) app.user = "";
  app.channel = s.channel;
  store.set("cardtable.channel", app.channel);
  if (app.user) store.set("cardtable.user", app.user);
  if (location.hash !== "#c=" + app.channel) history.replaceState(null, "", "#c=" + app.channel);
  renderChannels();
  renderPlayers();
  renderMessages();
  const name = channelName(app.channel);
  const ch = s.channels.find((c) => c.id === app.channel);
  $("#channel-name").textContent = (ch && ch.thread ? "🧵 " : "# ") + name;
  $("#input").placeholder = app.user ? `Message ${ch && ch.thread ? "" : "#"}${name} — type / for commands` : "Add a player above to play";
  document.title = `#${name} · cardbot local table`;
}

function renderChannels() {
  const ul = $("#channels");
  ul.replaceChildren(...app.state.channels.map((c) =>
    el("li", { class: c.thread ? "thread" : "" },
      el("a", {
        href: "#c=" + c.id, class: c.id === app.channel ? "active" : "", dataset: { channel: c.id },
        onclick: (e) => { e.preventDefault(); switchChannel(c.id); },
      }, c.thread ? (c.private ? "🔒 " : "🧵 ") : "# ", c.name))
  ));
  $("#members").replaceChildren(
    el("li", { title: "the bot", onclick: (e) => userMenu(e, app.state.bot) }, "🤖 ", app.state.bot.name, el("span", { class: "tag" }, "BOT")),
    ...app.state.members.map((m) => el("li", { onclick: (e) => userMenu(e, m) }, m.admin ? "🛡 " : "• ", m.name))
  );
}

function renderPlayers() {
  const list = $("#player-list");
  const players = app.state.members;
  list.replaceChildren(...players.map((m) =>
    el("button", {
      type: "button", class: "player" + (m.id === app.user ? " active" : ""), dataset: { player: m.id, name: m.name },
      "aria-pressed": String(m.id === app.user), title: m.admin ? "an admin (Manage Channel)" : "",
      onclick: () => switchUser(m.id),
    }, m.name, m.admin ? el("span", { class: "badge" }, "admin") : null)
  ));
}

function switchUser(id) {
  app.user = id;
  store.set("cardtable.user", id);
  app.nodes.clear();
  $("#messages").replaceChildren();
  clearNotice();
  refresh();
}

function switchChannel(id) {
  app.channel = id;
  app.nodes.clear();
  $("#messages").replaceChildren();
  document.body.classList.remove("side-open");
  clearNotice();
  hideSuggest();
  refresh();
}

function renderMessages() {
  const box = $("#messages");
  const s = app.state;
  const atBottom = box.scrollHeight - box.scrollTop - box.clientHeight < 80;
  if (!app.user) {
    app.nodes.clear();
    box.replaceChildren(el("div", { class: "empty" },
      el("h2", { text: "Welcome to the local table" }),
      el("p", { text: "This is the bot, as it runs on Discord, playing in a Discord stand-in on this machine. Add a player with “+ add a player” above — add two or more, and switch between them to play each seat. Each player sees only their own private messages." }),
      el("p", { text: "Then type / in the message box for the commands: /game new duel opens a Card Duel." })));
    return;
  }
  const msgs = s.messages.filter((m) => !app.dismissed.has(m.id));
  if (!msgs.length && !box.querySelector(".msg")) {
    box.replaceChildren(el("div", { class: "empty" },
      el("h2", { text: "Welcome to #" + channelName(app.channel) }),
      el("p", { text: "Type / for the commands. /game new opens a game in this channel." })));
  } else if (box.querySelector(".empty")) {
    box.replaceChildren();
  }
  const seen = new Set();
  let prev = null;
  let at = box.firstChild;
  for (const m of msgs) {
    seen.add(m.id);
    const first = !prev || prev.author.id !== m.author.id || m.reply_to || m.interaction ||
      new Date(m.timestamp) - new Date(prev.timestamp) > 7 * 60 * 1000 || m.ephemeral !== prev.ephemeral;
    const key = JSON.stringify([m, first, app.user, s.members.length, s.channels.length]);
    let entry = app.nodes.get(m.id);
    if (!entry || entry.key !== key) {
      const node = renderMessage(m, first);
      if (entry && entry.node.parentNode === box) {
        if (at === entry.node) at = node;
        entry.node.replaceWith(node);
      }
      entry = { key, node };
      app.nodes.set(m.id, entry);
    }
    if (entry.node !== at) box.insertBefore(entry.node, at);
    at = entry.node.nextSibling;
    prev = m;
  }
  for (const [id, entry] of app.nodes) {
    if (!seen.has(id)) { entry.node.remove(); app.nodes.delete(id); }
  }
  if (atBottom && box.scrollTop !== box.scrollHeight - box.clientHeight) box.scrollTop = box.scrollHeight;
}

function renderMessage(m, first) {
  const me = app.user;
  const pinged = (m.mentions || []).includes(me);
  const node = el("div", {
    class: "msg" + (first ? " first" : "") + (m.ephemeral ? " eph" : "") + (pinged ? " ping" : "") + (m.reply_to || m.interaction ? " withref" : ""),
    dataset: { id: m.id, edits: String(m.edits), author: m.author.name },
  });
  if (m.interaction) {
    node.append(el("div", { class: "ref" }, "↪ ", el("b", { text: m.interaction.user }),
      m.interaction.context ? " used " : " used ", el("span", { class: "mention", text: (m.interaction.context ? "" : "/") + m.interaction.command })));
  } else if (m.reply_to) {
    node.append(el("div", { class: "ref" }, "↪ ",
      m.reply_to.author ? el("b", { text: m.reply_to.author }) : el("i", { text: "Original message was deleted" }),
      el("span", { class: "snippet", text: (m.reply_to.text || "").split("\n")[0] })));
  }
  if (first) {
    node.append(el("div", { class: "avatar", style: `background:${colorOf(m.author.id)}`, "aria-hidden": "true" }, m.author.bot ? "🤖" : m.author.name.slice(0, 1).toUpperCase()));
    node.append(el("div", { class: "head" },
      el("span", { class: "author", text: m.author.name, onclick: (e) => userMenu(e, m.author) }),
      m.author.bot ? el("span", { class: "tag" }, "BOT") : null,
      el("span", { class: "time", title: new Date(m.timestamp).toLocaleString(), text: clock(m.timestamp) })));
  }
  if (m.type === 18) {
    node.append(el("div", { class: "system" }, `🧵 ${m.author.name} started a thread: `,
      el("a", { href: "#c=" + m.thread_ref, onclick: (e) => { e.preventDefault(); switchChannel(m.thread_ref); } }, m.content)));
    return node;
  }
  if (m.loading) {
    const late = Date.now() - new Date(m.timestamp) > TOKEN_LIFE;
    node.append(el("div", { class: "loading" }, late ? "The application did not respond" : el("span", { class: "dots" }, `${m.author.name} is thinking`)));
  }
  if (m.content) {
    const c = el("div", { class: "content", html: markdown(m.content, false) });
    if (m.edited_timestamp) c.append(" ", el("span", { class: "edited", title: new Date(m.edited_timestamp).toLocaleString() }, "(edited)"));
    node.append(c);
  }
  if (!m.suppress_embeds) for (const e of m.embeds || []) node.append(renderEmbed(e));
  for (const a of m.attachments || []) node.append(el("div", { class: "content" }, "📎 ", a));
  const rows = m.components || [];
  if (rows.length) node.append(el("div", { class: "rows" }, rows.map((r) => renderRow(r, m))));
  if (m.thread) {
    node.append(el("div", { class: "thread-box" }, "🧵 ",
      el("a", { href: "#c=" + m.thread.id, onclick: (e) => { e.preventDefault(); switchChannel(m.thread.id); } }, m.thread.name)));
  }
  if ((m.reactions || []).length) {
    node.append(el("div", { class: "reactions" }, m.reactions.map((r) =>
      el("button", {
        type: "button", class: "reaction" + (r.me ? " me" : ""), title: r.users.join(", ") + " reacted with " + r.emoji,
        dataset: { emoji: r.emoji }, "aria-pressed": String(!!r.me),
        onclick: (e) => act({ kind: r.me ? "unreact" : "react", message: m.id, edits: m.edits, emoji: r.emoji }, e.currentTarget),
      }, r.emoji, el("span", { class: "count", text: String(r.count) }))
    )));
  }
  if (m.ephemeral) {
    node.append(el("div", { class: "ephemeral-note" }, "👁 Only you can see this • ",
      el("button", { type: "button", onclick: () => dismiss(m.id) }, "Dismiss message")));
  } else {
    node.append(el("div", { class: "tools" },
      el("button", { type: "button", title: "Add Reaction", "aria-label": "Add Reaction", class: "add-reaction", onclick: (e) => emojiMenu(e, m) }, "☺"),
      el("button", { type: "button", title: "More", "aria-label": "More", class: "more", onclick: (e) => messageMenu(e, m) }, "⋯")));
  }
  return node;
}

function clock(ts) {
  const d = new Date(ts);
  const today = new Date().toDateString() === d.toDateString();
  return (today ? "Today at " : d.toLocaleDateString() + " ") + d.toLocaleTimeString(undefined, { hour: "2-digit", minute: "2-digit" });
}

function dismiss(id) {
  app.dismissed.add(id);
  localStorage.setItem("cardtable.dismissed", JSON.stringify([...app.dismissed].slice(-500)));
  const entry = app.nodes.get(id);
  if (entry) { entry.node.remove(); app.nodes.delete(id); }
}

function renderEmbed(e) {
  const color = e.color ? "#" + e.color.toString(16).padStart(6, "0") : "#1e1f22";
  const box = el("div", { class: "embed", style: `border-left-color:${color}` });
  if (e.author && e.author.name) box.append(el("div", { class: "e-author", text: e.author.name }));
  if (e.title) {
    const t = el("div", { class: "e-title", html: inline(e.title, true) });
    if (e.url && /^https?:/.test(e.url)) box.append(el("a", { href: e.url, target: "_blank", rel: "noreferrer" }, t));
    else box.append(t);
  }
  if (e.description) box.append(el("div", { class: "e-desc", html: markdown(e.description, true) }));
  if ((e.fields || []).length) {
    box.append(el("div", { class: "e-fields" }, e.fields.map((f) =>
      el("div", { class: "e-field" + (f.inline ? " inline" : "") },
        el("div", { class: "e-field-name", html: inline(f.name || "", true) }),
        el("div", { class: "e-field-value", html: markdown(f.value || "", true) })))));
  }
  for (const img of [e.image, e.thumbnail]) {
    if (img && /^https?:/.test(img.url || "")) box.append(el("img", { src: img.url, alt: "" }));
  }
  if ((e.footer && e.footer.text) || e.timestamp) {
    const parts = [];
    if (e.footer && e.footer.text) parts.push(e.footer.text);
    if (e.timestamp) parts.push(new Date(e.timestamp).toLocaleString());
    box.append(el("div", { class: "e-footer", text: parts.join(" • ") }));
  }
  return box;
}

function emojiOf(c) {
  if (!c.emoji) return null;
  return el("span", { class: "emoji" }, c.emoji.id ? ":" + c.emoji.name + ":" : c.emoji.name);
}

function renderRow(row, m) {
  return el("div", { class: "row" }, (row.components || []).map((c) => {
    if (c.type === COMP.BUTTON) {
      const style = BUTTON_STYLE[c.style] || "secondary";
      if (c.style === 5) {
        return el("a", { class: "btn link", href: c.url, target: "_blank", rel: "noreferrer" }, emojiOf(c), c.label || "", " ↗");
      }
      return el("button", {
        type: "button", class: "btn " + style, disabled: !!c.disabled, dataset: { customId: c.custom_id || "" },
        onclick: (e) => act({ kind: "click", message: m.id, edits: m.edits, custom_id: c.custom_id }, e.currentTarget),
      }, emojiOf(c), c.label || "");
    }
    if (c.type === COMP.SELECT) return renderSelect(c, m);
    return el("span", { class: "system", text: "(a component this table does not show)" });
  }));
}

function renderSelect(c, m) {
  const min = c.min_values ?? 1, max = c.max_values ?? 1;
  const defaults = (c.options || []).filter((o) => o.default);
  const wrap = el("div", { class: "select", dataset: { customId: c.custom_id } });
  const label = defaults.length ? defaults.map((o) => o.label).join(", ") : null;
  const button = el("button", {
    type: "button", class: "sel-button", disabled: !!c.disabled, "aria-haspopup": "listbox",
    onclick: () => toggle(),
  }, label ? el("span", { text: label }) : el("span", { class: "placeholder", text: c.placeholder || "Make a selection" }));
  wrap.append(button);
  let menu = null;
  const toggle = () => {
    if (menu) { menu.remove(); menu = null; return; }
    const chosen = new Set(defaults.map((o) => o.value));
    const done = el("button", { type: "button", class: "btn primary sel-apply" }, "Done");
    const update = () => {
      done.disabled = chosen.size < min || chosen.size > max;
      done.textContent = max > 1 ? `Done (${chosen.size} of ${min === max ? max : min + "–" + max})` : "Done";
    };
    menu = el("div", { class: "sel-menu" }, el("div", { class: "sel-list", role: "listbox", "aria-multiselectable": String(max > 1) },
      (c.options || []).map((o) => {
        const box = max > 1 ? el("input", { type: "checkbox", checked: chosen.has(o.value), tabindex: "-1" }) : null;
        const opt = el("div", {
          class: "sel-option" + (chosen.has(o.value) ? " checked" : ""), role: "option", dataset: { value: o.value },
          onclick: () => {
            if (max === 1) {
              menu.remove(); menu = null;
              act({ kind: "select", message: m.id, edits: m.edits, custom_id: c.custom_id, values: [o.value] }, button);
              return;
            }
            if (chosen.has(o.value)) chosen.delete(o.value);
            else if (chosen.size < max) chosen.add(o.value);
            box.checked = chosen.has(o.value);
            opt.classList.toggle("checked", chosen.has(o.value));
            update();
          },
        }, box, o.emoji ? el("span", { text: o.emoji.name }) : null,
        el("span", {}, el("span", { text: o.label }), o.description ? el("span", { class: "desc", text: o.description }) : null));
        return opt;
      })),
      max > 1 ? el("div", { class: "sel-done" },
        el("button", { type: "button", class: "btn secondary", onclick: () => { menu.remove(); menu = null; } }, "Cancel"),
        done) : null);
    done.onclick = () => {
      const values = (c.options || []).map((o) => o.value).filter((v) => chosen.has(v));
      menu.remove(); menu = null;
      act({ kind: "select", message: m.id, edits: m.edits, custom_id: c.custom_id, values }, button);
    };
    update();
    // Fixed to the window, so the message list's scrolling never clips it:
    // above the menu's button, or below it near the top of the window.
    const rect = button.getBoundingClientRect();
    Object.assign(menu.style, { position: "fixed", left: rect.left + "px", width: rect.width + "px", margin: "0" });
    if (rect.top > Math.min(340, innerHeight / 2)) {
      Object.assign(menu.style, { bottom: innerHeight - rect.top + 4 + "px", top: "auto", maxHeight: Math.min(320, rect.top - 12) + "px" });
    } else {
      Object.assign(menu.style, { top: rect.bottom + 4 + "px", bottom: "auto", maxHeight: Math.min(320, innerHeight - rect.bottom - 12) + "px" });
    }
    wrap.append(menu);
  };
  return wrap;
}

// ---- popups: reactions, apps, members -------------------------------------

function popup(e, ...kids) {
  const p = $("#popup");
  p.replaceChildren(...kids.flat().filter((k) => k !== null && k !== undefined));
  p.hidden = false;
  const r = e.currentTarget.getBoundingClientRect();
  const w = p.offsetWidth, h = p.offsetHeight;
  p.style.left = Math.max(8, Math.min(r.right - w, innerWidth - w - 8)) + "px";
  p.style.top = (r.bottom + h + 8 < innerHeight ? r.bottom + 4 : Math.max(8, r.top - h - 4)) + "px";
  e.stopPropagation();
}
function closePopup() { $("#popup").hidden = true; }
document.addEventListener("click", (e) => { if (!$("#popup").contains(e.target)) closePopup(); });
document.addEventListener("keydown", (e) => { if (e.key === "Escape") { closePopup(); hideSuggest(); } });

function emojiMenu(e, m) {
  const send = (emoji) => { closePopup(); act({ kind: "react", message: m.id, edits: m.edits, emoji }); };
  const input = el("input", { placeholder: "or type an emoji", "aria-label": "Emoji" });
  input.addEventListener("keydown", (k) => { if (k.key === "Enter" && input.value.trim()) send(input.value.trim()); });
  popup(e, el("div", { class: "title", text: "Add Reaction" }),
    el("div", { class: "emojis" }, QUICK_EMOJI.map((x) => el("button", { type: "button", dataset: { emoji: x }, onclick: () => send(x) }, x))),
    input);
}

function messageMenu(e, m) {
  const apps = app.state.commands.filter((c) => c.type === CMD.MESSAGE);
  popup(e,
    el("button", { type: "button", class: "item", onclick: (ev) => { emojiMenu(ev, m); } }, "Add Reaction"),
    el("div", { class: "title", text: "Apps" }),
    apps.length ? apps.map((c) => el("button", {
      type: "button", class: "item app", dataset: { command: c.name },
      onclick: () => { closePopup(); act({ kind: "message_command", command: c.name, message: m.id, edits: m.edits }); },
    }, c.name)) : el("div", { class: "item", text: "No apps" }));
}

function userMenu(e, member) {
  const apps = app.state.commands.filter((c) => c.type === CMD.USER);
  popup(e, el("div", { class: "title", text: member.name }),
    el("button", {
      type: "button", class: "item", onclick: () => { closePopup(); insertText(`<@${member.id}> `); },
    }, "Mention"),
    apps.length ? el("div", { class: "title", text: "Apps" }) : null,
    apps.map((c) => el("button", {
      type: "button", class: "item app", dataset: { command: c.name },
      onclick: () => { closePopup(); act({ kind: "user_command", command: c.name, target: member.id }); },
    }, c.name)));
}

// ---- modals ---------------------------------------------------------------

function openModal(modal) {
  const d = $("#modal");
  $("#modal-title").textContent = modal.Title || modal.title;
  const fields = $("#modal-fields");
  fields.replaceChildren(...modal.inputs.map((i) => {
    const attrs = {
      name: i.CustomID, value: i.Value || "", placeholder: i.Placeholder || "", required: i.Required,
      minlength: i.MinLength || null, maxlength: i.MaxLength || null,
    };
    const input = i.Style === 2 ? el("textarea", attrs) : el("input", attrs);
    if (i.Style === 2) input.value = i.Value || "";
    return el("label", {}, el("span", {}, i.Label, i.Required ? el("span", { class: "req" }, " *") : null), input);
  }));
  d.dataset.modal = modal.id;
  d.showModal();
  const firstInput = fields.querySelector("input, textarea");
  if (firstInput) firstInput.focus();
}

$("#modal-cancel").addEventListener("click", () => $("#modal").close());
$("#modal-form").addEventListener("submit", (e) => {
  e.preventDefault();
  const d = $("#modal");
  const fields = {};
  for (const i of d.querySelectorAll("input, textarea")) fields[i.name] = i.value;
  d.close();
  act({ kind: "submit", modal: d.dataset.modal, fields });
});

// ---- slash commands -------------------------------------------------------

// paths lists every command a player can run, with its subcommand path:
// /game new duel, /game hand, /rules…
function paths() {
  const out = [];
  for (const c of (app.state ? app.state.commands : [])) {
    if ((c.type || CMD.CHAT) !== CMD.CHAT) continue;
    const walk = (opts, path, desc) => {
      const subs = (opts || []).filter((o) => o.type === OPT.SUB || o.type === OPT.GROUP);
      if (!subs.length) { out.push({ command: c.name, path, label: "/" + [c.name, ...path].join(" "), description: desc, options: opts || [] }); return; }
      for (const s of subs) walk(s.options, [...path, s.name], s.description);
    };
    walk(c.options, [], c.description);
  }
  return out;
}

// parse reads "/game new duel life:15 hand_limit:20" against the commands.
function parse(text) {
  const words = text.replace(/^\//, "").split(/\s+/);
  const all = paths();
  let best = null;
  for (const p of all) {
    const n = 1 + p.path.length;
    if ([p.command, ...p.path].every((w, i) => words[i] === w) && (!best || n > best.n)) best = { p, n };
  }
  if (!best) return { error: `No command “/${words[0]}”: type / to see them.` };
  const p = best.p;
  const rest = text.replace(/^\//, "").trim().split(/\s+/).slice(best.n).join(" ");
  const options = [];
  if (rest) {
    const names = p.options.map((o) => o.name).sort((a, b) => b.length - a.length).map((n) => n.replace(/[-_]/g, (c) => "\\" + c));
    // Only the command's own option names start an option, so that a value
    // may hold a colon ("/say line:Listen: it's late").
    const re = names.length ? new RegExp(`(?:^|\\s)(${names.join("|")}):`, "g") : null;
    const marks = [];
    let m;
    while (re && (m = re.exec(rest))) marks.push({ name: m[1], at: m.index, start: re.lastIndex });
    const lead = marks.length ? rest.slice(0, marks[0].at).trim() : rest;
    if (lead) {
      // "/say Hello there": the text goes to the one required text option.
      const req = p.options.filter((o) => o.required);
      if (req.length === 1 && req[0].type === OPT.STRING && !options.length) options.push({ name: req[0].name, value: lead });
      else if (!p.options.length) return { error: `${p.label} takes no options.` };
      else return { error: `Give options as name:value, e.g. ${p.label} ${p.options.map((o) => o.name + ":…").join(" ")}` };
    }
    marks.forEach((mk, i) => options.push({ name: mk.name, value: rest.slice(mk.start, i + 1 < marks.length ? marks[i + 1].at : undefined).trim() }));
  }
  return { path: p, options };
}

let suggestions = [], chosen = 0;

function showSuggest(title, items) {
  const box = $("#suggest");
  suggestions = items;
  chosen = Math.min(chosen, Math.max(0, items.length - 1));
  if (!items.length) { hideSuggest(); return; }
  box.replaceChildren(el("div", { class: "title", text: title }), ...items.map((it, i) =>
    el("div", {
      class: "item" + (i === chosen ? " sel" : ""), role: "option", dataset: { label: it.label },
      onmousedown: (e) => { e.preventDefault(); it.pick(); },
    }, el("span", { class: "name", text: it.label }), it.description ? el("span", { class: "desc", text: it.description }) : null)));
  box.hidden = false;
}
function hideSuggest() { $("#suggest").hidden = true; suggestions = []; }

function insertText(t) {
  const input = $("#input");
  input.value = input.value.replace(/\s*$/, input.value ? " " : "") + t;
  input.focus();
  onInput();
}

// onInput offers commands while the player types a command's name, then its
// options, and an option's choices.
function onInput() {
  const input = $("#input");
  const text = input.value;
  const hints = $("#hints");
  if (!text.startsWith("/")) { hideSuggest(); hints.hidden = true; return; }
  const all = paths();
  const exact = all.filter((p) => text === p.label || text.startsWith(p.label + " "))
    .sort((a, b) => b.label.length - a.label.length)[0];
  if (!exact) {
    hints.hidden = true;
    const q = text.trim().toLowerCase();
    showSuggest("Commands", all.filter((p) => p.label.startsWith(q) || p.label.includes(q.slice(1)) && q.length > 1).map((p) => ({
      label: p.label, description: p.description,
      pick: () => { input.value = p.label + " "; input.focus(); chosen = 0; onInput(); },
    })));
    return;
  }
  // The options of the command, given ones dimmed; the choices of the one being typed.
  const given = new Set([...text.matchAll(/(?:^|\s)([\w-]+):/g)].map((m) => m[1]));
  hints.replaceChildren(el("span", { class: "title", text: exact.label }),
    ...exact.options.map((o) => el("span", {
      class: "opt" + (o.required ? " req" : "") + (given.has(o.name) ? " given" : ""), title: o.description,
      dataset: { option: o.name },
      onmousedown: (e) => { e.preventDefault(); insertText(o.name + ":"); },
    }, o.name + optRange(o))),
    ...(exact.options.length ? [] : [el("span", { class: "desc", text: exact.description })]));
  hints.hidden = false;
  // The value being typed: after "name:", until a space ends it.
  const typing = text.endsWith(" ") ? null : /(?:^|\s)([\w-]+):([^:]*)$/.exec(text);
  const def = typing && exact.options.find((o) => o.name === typing[1]);
  if (def) {
    const partial = typing[2].trim().toLowerCase();
    let values = [];
    if (def.choices) values = def.choices.map((c) => ({ label: c.name, value: String(c.value) }));
    else if (def.type === OPT.BOOLEAN) values = [{ label: "True", value: "true" }, { label: "False", value: "false" }];
    else if (def.type === OPT.USER || def.type === OPT.MENTIONABLE) values = app.state.members.map((m) => ({ label: m.name, value: m.name }));
    values = values.filter((v) => !partial || v.label.toLowerCase().startsWith(partial) || v.value.toLowerCase().startsWith(partial));
    showSuggest(def.name + (def.description ? " — " + def.description : ""), values.map((v) => ({
      label: v.label, description: v.label !== v.value ? v.value : "",
      pick: () => { input.value = text.slice(0, text.length - typing[2].length) + v.value + " "; input.focus(); onInput(); },
    })));
    return;
  }
  hideSuggest();
}

function optRange(o) {
  if (o.type === OPT.INTEGER || o.type === OPT.NUMBER) {
    if (o.min_value !== undefined && o.max_value !== undefined && o.max_value !== 0) return ` (${o.min_value}–${o.max_value})`;
    return " (number)";
  }
  if (o.type === OPT.BOOLEAN) return " (true/false)";
  if (o.type === OPT.USER) return " (player)";
  return "";
}

$("#input").addEventListener("input", () => { chosen = 0; onInput(); });
$("#input").addEventListener("keydown", (e) => {
  if ($("#suggest").hidden || !suggestions.length) return;
  if (e.key === "ArrowDown" || e.key === "ArrowUp") {
    e.preventDefault();
    chosen = (chosen + (e.key === "ArrowDown" ? 1 : suggestions.length - 1)) % suggestions.length;
    onInput();
  } else if (e.key === "Tab" || e.key === "Enter") {
    // As in Discord, Enter takes the highlighted command or value.
    e.preventDefault();
    suggestions[chosen].pick();
  }
});
$("#commands-button").addEventListener("click", () => {
  const input = $("#input");
  input.value = "/";
  input.focus();
  onInput();
});

$("#composer").addEventListener("submit", async (e) => {
  e.preventDefault();
  const input = $("#input");
  const text = input.value.trim();
  if (!text) return;
  if (!app.user) { notice("Add a player above first."); return; }
  if (text.startsWith("/")) {
    const p = parse(text);
    if (p.error) { notice(p.error); return; }
    input.value = "";
    hideSuggest();
    $("#hints").hidden = true;
    const res = await act({ kind: "command", command: p.path.command, path: p.path.path, options: p.options });
    if (res && res.error) input.value = text;
    return;
  }
  input.value = "";
  const res = await act({ kind: "say", content: text });
  if (res && res.error) input.value = text;
});

// ---- players and channels -------------------------------------------------

$("#add-player").addEventListener("submit", async (e) => {
  e.preventDefault();
  const input = e.target.elements.name;
  const name = input.value.trim();
  if (!name) return;
  const res = await post("/api/players", { name });
  if (res.error) { notice(res.error); return; }
  input.value = "";
  switchUser(res.id);
});

$("#add-channel").addEventListener("submit", async (e) => {
  e.preventDefault();
  const input = e.target.elements.name;
  const name = input.value.trim();
  if (!name) return;
  const res = await post("/api/channels", { name });
  if (res.error) { notice(res.error); return; }
  input.value = "";
  switchChannel(res.id);
});

$("#menu").addEventListener("click", (e) => { e.stopPropagation(); document.body.classList.toggle("side-open"); });
$("#messages").addEventListener("click", (e) => {
  document.body.classList.remove("side-open");
  const sp = e.target.closest(".spoiler");
  if (sp) sp.classList.add("shown");
  const ch = e.target.closest("[data-channel]");
  if (ch) { e.preventDefault(); switchChannel(ch.dataset.channel); }
});
window.addEventListener("hashchange", () => {
  const c = new URLSearchParams(location.hash.slice(1)).get("c");
  if (c && c !== app.channel) switchChannel(c);
});

listen();
refresh();
