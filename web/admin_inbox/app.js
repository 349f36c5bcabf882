// EasyMO Admin Inbox: a static page. Staff sign in with Supabase Auth's
// password grant, then work the ticket queue through the `admin-messages`
// function. Plain ES module, no build step, no framework.
//
// Safety rule: user data only ever enters the page as text (textContent,
// Node.append with strings, setAttribute), never as HTML.

const config = globalThis.EASYMO_CONFIG ?? {};
const BASE_URL = String(config.supabaseUrl ?? "").replace(/\/+$/, "");
const ANON_KEY = String(config.anonKey ?? "");
const API = `${BASE_URL}/functions/v1/admin-messages`;
const SESSION_KEY = "easymo.admin_inbox.session";
const POLL_MS = 3000;
const PRIORITIES = ["urgent", "high", "medium", "low"];
const SENDERS = { user: "Customer", agent: "Assistant", staff: "Staff", system: "System" };
const ACTION_DONE = {
  claim: "Ticket claimed. You can reply now.",
  release: "Ticket released to the queue.",
  resolve: "Ticket resolved.",
  reopen: "Ticket reopened.",
};

const $ = (id) => document.getElementById(id);

const state = {
  session: null, // { accessToken, expiresAt }
  me: null, // { user: {id, name, phone}, orgs: [...] }
  tickets: new Map(), // id -> ticket (+ _fetchedAt)
  serverTime: null,
  queueSignature: "",
  selectedId: null,
  detail: null, // { ticket, messages, notes }
  timer: 0,
  generation: 0, // bumped on sign-out and filter changes: late answers are dropped
  reply: null, // { text, key }: the key is reused only when resending the same text
  assistant: null, // { text, choice, key }: likewise, for a message to a staff assistant
};

// ---------------------------------------------------------------- helpers

/** Creates an element; strings among the children become text nodes. */
function el(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === null || value === undefined || value === false) continue;
    if (name === "className") node.className = value;
    else node.setAttribute(name, value === true ? "" : String(value));
  }
  node.append(...children.flat().filter((child) => child !== null && child !== undefined));
  return node;
}

const PLURAL = new Intl.PluralRules("en");

/** "1 photo", "2 photos": the page's English with one and many, never "photo(s)". */
function counted(n, one, many) {
  return `${n} ${PLURAL.select(n) === "one" ? one : many}`;
}

function capitalise(word) {
  return word ? word[0].toUpperCase() + word.slice(1) : "";
}

function formatAge(seconds) {
  const s = Math.max(0, Math.floor(seconds));
  if (s < 60) return "under 1 min";
  if (s < 3600) return `${Math.floor(s / 60)} min`;
  if (s < 86400) return `${Math.floor(s / 3600)} h ${Math.floor((s % 3600) / 60)} min`;
  return `${Math.floor(s / 86400)} d`;
}

function formatTime(iso) {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return "";
  const sameDay = date.toDateString() === new Date().toDateString();
  return sameDay
    ? date.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" })
    : date.toLocaleString([], { dateStyle: "medium", timeStyle: "short" });
}

function timeElement(iso) {
  return el("time", { datetime: iso }, formatTime(iso));
}

/** A v4 UUID, also outside secure contexts. */
function uuid() {
  if (crypto.randomUUID) return crypto.randomUUID();
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  const h = [...b].map((x) => x.toString(16).padStart(2, "0")).join("");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

let announceTimer = 0;
/** Says something through the polite live region. */
function announce(message) {
  const region = $("announcer");
  region.textContent = "";
  clearTimeout(announceTimer);
  // A short gap makes screen readers read a repeated message again.
  announceTimer = setTimeout(() => (region.textContent = message), 100);
}

function myId() {
  return state.me?.user?.id ?? null;
}

function ageOf(ticket) {
  return ticket.age_sec + (Date.now() - ticket._fetchedAt) / 1000;
}

function requesterText(ticket) {
  const r = ticket.requester;
  if (!r) return "Unknown requester";
  return [r.name, r.phone].filter(Boolean).join(" · ") || "Unknown requester";
}

function assigneeText(ticket) {
  if (ticket.status === "resolved") return "Resolved";
  if (!ticket.assigned_to) return "Unassigned";
  if (ticket.assigned_to === myId()) return "Claimed by you";
  return `Claimed by ${ticket.assigned_name ?? "another staff member"}`;
}

function windowText(ticket) {
  return ticket.window_open ? "24 h window open" : "24 h window closed";
}

// -------------------------------------------------------------------- API

class ApiError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

/** Calls the admin-messages API; answers `data` or throws an ApiError. */
async function api(path, { method = "GET", body, headers = {} } = {}) {
  const session = state.session;
  if (!session) throw new ApiError(401, "AUTH_ERROR", "Signed out");
  if (Date.now() >= session.expiresAt) {
    signOut("Your session has ended. Please sign in again.");
    throw new ApiError(401, "AUTH_ERROR", "Signed out");
  }
  let response;
  try {
    response = await fetch(API + path, {
      method,
      headers: {
        apikey: ANON_KEY,
        authorization: `Bearer ${session.accessToken}`,
        ...(body === undefined ? {} : { "content-type": "application/json" }),
        ...headers,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new ApiError(0, "NETWORK", "Cannot reach the server. Check your connection.");
  }
  const payload = await response.json().catch(() => null);
  if (response.ok && payload?.ok) return payload.data;
  if (response.status === 401 && state.session === session) {
    signOut("Your session has ended. Please sign in again.");
  }
  throw new ApiError(
    response.status,
    payload?.error?.code ?? `HTTP_${response.status}`,
    payload?.error?.msg ?? `The server answered ${response.status}.`,
  );
}

/** Supabase Auth's password grant; answers the session to keep. */
async function passwordGrant(login, password) {
  const id = login.trim();
  const credentials = id.includes("@") ? { email: id } : { phone: id.replace(/[\s().-]/g, "") };
  let response;
  try {
    response = await fetch(`${BASE_URL}/auth/v1/token?grant_type=password`, {
      method: "POST",
      headers: { apikey: ANON_KEY, "content-type": "application/json" },
      body: JSON.stringify({ ...credentials, password }),
    });
  } catch {
    throw new Error("Cannot reach the server. Check your connection.");
  }
  const payload = await response.json().catch(() => null);
  if (!response.ok || !payload?.access_token) {
    if (payload?.error === "invalid_grant") {
      throw new Error("Wrong email, phone or password.");
    }
    throw new Error(payload?.error_description ?? payload?.msg ?? "Sign-in failed.");
  }
  return {
    accessToken: payload.access_token,
    expiresAt: Date.now() + (Number(payload.expires_in) || 3600) * 1000,
  };
}

// ---------------------------------------------------------------- session

function saveSession(session) {
  sessionStorage.setItem(SESSION_KEY, JSON.stringify(session));
}

function loadSession() {
  try {
    const session = JSON.parse(sessionStorage.getItem(SESSION_KEY) ?? "null");
    if (session?.accessToken && session.expiresAt > Date.now()) return session;
  } catch {
    // Unreadable: start over.
  }
  sessionStorage.removeItem(SESSION_KEY);
  return null;
}

function setView(view) {
  document.body.dataset.view = view;
  const signedIn = view !== "signin";
  $("signin-view").hidden = signedIn;
  $("queue").hidden = !signedIn;
  $("session").hidden = !signedIn;
  $("detail").hidden = view !== "detail";
  $("assistant").hidden = !signedIn;
  $("no-selection").hidden = view !== "list";
}

async function enterInbox(session) {
  state.session = session;
  let me;
  try {
    me = await api("/me");
  } catch (error) {
    if (error.status === 403) {
      signOut("This account is not staff of any organisation.");
    } else if (error.status !== 401) {
      signOut(error.message);
    }
    return false;
  }
  if (state.session !== session) return false;
  state.me = me;
  saveSession(session);
  const orgs = (me.orgs ?? []).map((org) => org.name ?? org.slug).filter(Boolean).join(", ");
  $("who").textContent = `${me.user?.name ?? "Staff"}${orgs ? ` · ${orgs}` : ""}`;
  setView("list");
  loadAssistant();
  await Promise.all([loadQueue(), loadListings()]);
  route({ focus: false });
  schedule();
  return true;
}

/** Forgets the session and shows the sign-in form (with a message, if any). */
function signOut(message = "") {
  state.generation++;
  clearTimeout(state.timer);
  sessionStorage.removeItem(SESSION_KEY);
  Object.assign(state, {
    session: null,
    me: null,
    tickets: new Map(),
    serverTime: null,
    queueSignature: "",
    selectedId: null,
    detail: null,
    reply: null,
    assistant: null,
  });
  $("ticket-list").replaceChildren();
  $("assistant-log").replaceChildren();
  $("assistant-error").textContent = "";
  $("queue-counts").textContent = "";
  $("reply-form").reset();
  $("note-form").reset();
  setConnection("");
  document.title = "EasyMO Admin Inbox";
  if (location.hash) history.replaceState(null, "", location.pathname + location.search);
  setView("signin");
  $("signin-error").textContent = message;
}

// ------------------------------------------------------------------ queue

function filters() {
  return {
    status: $("filter-status").value,
    priority: $("filter-priority").value,
    channel: $("filter-channel").value,
    mine: $("filter-mine").checked,
  };
}

function filterQuery() {
  const f = filters();
  const query = new URLSearchParams({ status: f.status });
  if (f.priority) query.set("priority", f.priority);
  if (f.channel) query.set("channel", f.channel);
  if (f.mine) query.set("mine", "1");
  return query.toString();
}

function matchesFilters(ticket) {
  const f = filters();
  if (f.status === "active" && ticket.status === "resolved") return false;
  if (!["active", "all"].includes(f.status) && ticket.status !== f.status) return false;
  if (f.priority && ticket.priority !== f.priority) return false;
  // A ticket can go to several channels (an urgent one: Inbox, Slack and SMS).
  if (f.channel && !channelsOf(ticket).includes(f.channel)) return false;
  if (f.mine && ticket.assigned_to !== myId()) return false;
  return true;
}

function byUrgencyThenAge(a, b) {
  const rank = PRIORITIES.indexOf(a.priority) - PRIORITIES.indexOf(b.priority);
  return rank || Date.parse(a.created_at) - Date.parse(b.created_at);
}

function remember(ticket) {
  const stamped = { ...ticket, _fetchedAt: Date.now() };
  state.tickets.set(ticket.id, stamped);
  return stamped;
}

function showCounts(queue) {
  if (!queue) return;
  $("queue-counts").textContent =
    `${queue.open} open · ${queue.claimed} claimed · ${queue.resolved_today} resolved today`;
  document.title = queue.open > 0 ? `(${queue.open}) EasyMO Admin Inbox` : "EasyMO Admin Inbox";
}

/** Loads the whole queue for the current filters. */
async function loadQueue() {
  const generation = ++state.generation;
  $("queue-loading").hidden = false;
  $("queue-empty").hidden = true;
  try {
    const data = await api(`/tickets?${filterQuery()}`);
    if (generation !== state.generation) return;
    state.tickets = new Map();
    for (const ticket of data.tickets) remember(ticket);
    state.serverTime = data.server_time;
    showCounts(data.queue);
    setConnection("");
  } catch (error) {
    if (generation === state.generation && error.status !== 401) setConnection(error.message);
  } finally {
    if (generation === state.generation) {
      $("queue-loading").hidden = true;
      renderQueue({ force: true });
    }
  }
}

// ---------------------------------------------------------------- listings

/**
 * Rental listings landlords sent, waiting for approval, with their photos. Hidden for an org
 * whose agents do not include property (the API refuses the call).
 */
async function loadListings() {
  let data;
  try {
    data = await api("/listings");
  } catch {
    $("listings").hidden = true;
    return;
  }
  $("listing-list").replaceChildren(...data.listings.map(listingItem));
  $("listings-empty").hidden = data.listings.length > 0;
  $("listings").hidden = false;
}

function listingItem(listing) {
  const headingId = `listing-${listing.id}`;
  const photos = listing.photos.map((url, index) =>
    el("img", {
      src: url,
      alt: `Photo ${index + 1} of ${listing.title}`,
      className: "listing-photo",
      width: 96,
      height: 72,
    })
  );
  const missing = listing.photo_count - listing.photos.length;
  const reason = el("input", {
    type: "text",
    id: `reason-${listing.id}`,
    maxlength: 300,
    autocomplete: "off",
  });
  const approve = el("button", { type: "button" }, "Approve");
  const reject = el("button", { type: "button", className: "secondary" }, "Reject");
  approve.addEventListener("click", () => reviewListing(listing, "approve", approve));
  reject.addEventListener("click", () => {
    const why = reason.value.trim();
    if (why.length < 3) {
      $("listing-error").textContent = "Say why the listing is rejected (at least 3 characters).";
      reason.focus();
      return;
    }
    reviewListing(listing, "reject", reject, why);
  });
  const rent = `${Number(listing.price).toLocaleString("en")} RWF/month`;
  return el(
    "li",
    { className: "listing", "aria-labelledby": headingId },
    el("h3", { id: headingId }, listing.title),
    el(
      "p",
      {},
      `${rent} · ${
        counted(listing.bedrooms, "bedroom", "bedrooms")
      } · ${listing.area} · from ${listing.available_from}`,
    ),
    el("div", { className: "listing-photos" }, ...photos),
    missing > 0
      ? el(
        "p",
        { className: "hint" },
        `${counted(missing, "photo", "photos")} could not be linked.`,
      )
      : null,
    el("label", { for: `reason-${listing.id}` }, "Reason (to reject)"),
    reason,
    el("div", { className: "actions", role: "group", "aria-label": "Review" }, approve, reject),
  );
}

async function reviewListing(listing, decision, button, reason) {
  button.disabled = true;
  $("listing-error").textContent = "";
  try {
    await api(`/listings/${encodeURIComponent(listing.id)}/review`, {
      method: "POST",
      body: reason ? { decision, reason } : { decision },
      headers: { "idempotency-key": uuid() },
    });
    announce(
      decision === "approve"
        ? `${listing.title} is published.`
        : `${listing.title} is rejected; the landlord will be told why.`,
    );
    await loadListings();
  } catch (error) {
    $("listing-error").textContent = error.message;
    button.disabled = false;
  }
}

/** Fetches what changed since the last answer and merges it in. */
async function poll() {
  if (!state.serverTime) return loadQueue();
  const generation = state.generation;
  // Every status is asked for, so a ticket that leaves the view is seen leaving.
  const since = encodeURIComponent(state.serverTime);
  const data = await api(`/tickets?status=all&updated_since=${since}`);
  if (generation !== state.generation) return;
  state.serverTime = data.server_time;
  showCounts(data.queue);
  const arrived = [];
  for (const ticket of data.tickets) {
    if (!matchesFilters(ticket)) {
      state.tickets.delete(ticket.id);
      continue;
    }
    if (!state.tickets.has(ticket.id) && ticket.status === "open") arrived.push(ticket);
    remember(ticket);
  }
  renderQueue();
  if (arrived.length === 1) {
    announce(`New ${arrived[0].priority} priority ticket: ${arrived[0].reason}`);
  } else if (arrived.length > 1) {
    announce(`${arrived.length} new tickets in the queue.`);
  }
}

const LANGUAGES = { en: "English", rw: "Kinyarwanda", fr: "French" };

function channelsOf(ticket) {
  return ticket.channels?.length ? ticket.channels : [ticket.channel];
}

function channelsText(ticket) {
  return channelsOf(ticket).map((channel) => channel === "sms" ? "SMS" : capitalise(channel))
    .join(", ");
}

// Who the person was with, in which language, and where the ticket went.
function triageText(ticket) {
  return [ticket.agent_name, LANGUAGES[ticket.language] ?? ticket.language, channelsText(ticket)]
    .filter(Boolean).join(" · ");
}

function ticketItem(ticket) {
  const selected = ticket.id === state.selectedId;
  const link = el(
    "a",
    {
      href: `#/tickets/${encodeURIComponent(ticket.id)}`,
      className: "ticket-link",
      "aria-current": selected ? "true" : null,
    },
    el("span", { className: `badge priority-${ticket.priority}` }, capitalise(ticket.priority)),
    " ",
    el("span", { className: "reason" }, ticket.reason),
    " ",
    el("span", { className: "need" }, ticket.summary),
    " ",
    ...(ticket.last_message
      ? [el("span", { className: "preview" }, `“${ticket.last_message}”`), " "]
      : []),
    el("span", { className: "requester" }, requesterText(ticket)),
    " ",
    el("span", { className: "triage" }, triageText(ticket)),
    " ",
    el(
      "span",
      { className: "meta" },
      "Waiting ",
      el("span", { "data-age-of": ticket.id }, formatAge(ageOf(ticket))),
      " · ",
      el(
        "span",
        { className: ticket.window_open ? "window-open" : "window-closed" },
        windowText(ticket),
      ),
      " · ",
      assigneeText(ticket),
    ),
  );
  return el(
    "li",
    { className: `ticket status-${ticket.status}`, "data-ticket-id": ticket.id },
    link,
  );
}

/** Redraws the list when it changed; otherwise only the ages tick. */
function renderQueue({ force = false } = {}) {
  const tickets = [...state.tickets.values()].sort(byUrgencyThenAge);
  const signature = JSON.stringify([
    state.selectedId,
    myId(),
    tickets.map((t) => [t.id, t.updated_at, t.status, t.assigned_to, t.window_open]),
  ]);
  if (force || signature !== state.queueSignature) {
    state.queueSignature = signature;
    const list = $("ticket-list");
    const focusedId = document.activeElement?.closest?.("#ticket-list [data-ticket-id]")
      ?.getAttribute("data-ticket-id");
    list.replaceChildren(...tickets.map(ticketItem));
    if (focusedId) focusTicketLink(focusedId);
  }
  for (const node of document.querySelectorAll("[data-age-of]")) {
    const ticket = state.tickets.get(node.getAttribute("data-age-of"));
    if (ticket) node.textContent = formatAge(ageOf(ticket));
  }
  $("queue-empty").hidden = tickets.length > 0 || !$("queue-loading").hidden;
}

function focusTicketLink(id) {
  for (const item of $("ticket-list").children) {
    if (item.getAttribute("data-ticket-id") === id) {
      item.querySelector("a")?.focus();
      return true;
    }
  }
  return false;
}

// ------------------------------------------------------------------ live

function setConnection(message) {
  const line = $("connection");
  line.textContent = message;
  line.hidden = !message;
}

function schedule() {
  clearTimeout(state.timer);
  if (!state.session || document.hidden) return;
  state.timer = setTimeout(tick, POLL_MS);
}

async function tick() {
  clearTimeout(state.timer);
  if (!state.session || document.hidden) return;
  try {
    await poll();
    if (state.selectedId) await refreshDetail();
    if (state.session) setConnection("");
  } catch (error) {
    if (error.status === 0) setConnection("Connection lost. Retrying…");
    else if (error.status !== 401) setConnection(error.message);
  } finally {
    schedule();
  }
}

// ---------------------------------------------------------------- detail

/** Follows the address: `#/tickets/<id>` opens a ticket, anything else the list. */
function route({ focus = true } = {}) {
  if (!state.me) return;
  const match = /^#\/tickets\/([^/]+)$/.exec(location.hash);
  if (match) {
    let id = match[1];
    try {
      id = decodeURIComponent(id);
    } catch {
      // Not a valid address: the API answers "not found" for it.
    }
    if (id !== state.selectedId) openTicket(id, { focus });
    return;
  }
  closeTicket({ focus });
}

async function openTicket(id, { focus }) {
  const switching = id !== state.selectedId;
  state.selectedId = id;
  if (switching) {
    state.detail = null;
    state.reply = null;
    $("reply-form").reset();
    $("note-form").reset();
    $("action-error").textContent = "";
    for (const list of [$("transcript"), $("notes")]) {
      list.replaceChildren();
      delete list.dataset.key;
    }
    // Nothing of the previous ticket stays on screen while this one loads.
    const known = state.tickets.get(id);
    $("ticket-heading").textContent = known ? known.reason : "Loading ticket…";
    $("ticket-summary").textContent = "";
    $("ticket-facts").replaceChildren();
    for (const button of document.querySelectorAll("[data-action]")) button.hidden = true;
    $("reply-text").disabled = true;
    $("reply-send").disabled = true;
    $("reply-hint").textContent = "";
  }
  setView("detail");
  renderQueue();
  if (focus) $("ticket-heading").focus();
  try {
    await refreshDetail();
  } catch (error) {
    setConnection(error.message);
  }
}

function closeTicket({ focus }) {
  const previous = state.selectedId;
  state.selectedId = null;
  state.detail = null;
  setView("list");
  renderQueue();
  if (focus && !(previous && focusTicketLink(previous))) $("queue-heading").focus();
}

function goBack() {
  if (location.hash) location.hash = "#/";
  else closeTicket({ focus: true });
}

async function refreshDetail() {
  const id = state.selectedId;
  if (!id) return;
  try {
    const data = await api(`/tickets/${encodeURIComponent(id)}`);
    if (id !== state.selectedId) return;
    state.detail = data;
    if (state.tickets.has(id) || matchesFilters(data.ticket)) remember(data.ticket);
    renderDetail();
    renderQueue();
  } catch (error) {
    if (id !== state.selectedId) return;
    if (error.status === 404) {
      state.detail = null;
      $("ticket-heading").textContent = "Ticket not found";
      $("ticket-summary").textContent = "It does not exist or you cannot see it.";
      $("ticket-facts").replaceChildren();
      for (const button of document.querySelectorAll("[data-action]")) button.hidden = true;
      $("reply-form").hidden = true;
      $("note-form").hidden = true;
    } else if (error.status !== 401) {
      throw error;
    }
  }
}

function fact(term, ...value) {
  return [el("dt", {}, term), el("dd", {}, ...value)];
}

// A legal case's photos and documents (signed Storage links), as listings' photos are shown.
// Re-drawn only when the case or its documents change: each poll signs new links.
function renderCaseDocuments(legal) {
  const section = $("case-documents-section");
  section.hidden = !legal;
  if (!legal) return;
  const list = $("case-documents");
  const key = `${legal.reference_number}:${legal.documents.map((d) => d.number).join()}`;
  if (list.dataset.key === key) return;
  list.dataset.key = key;
  $("case-documents-heading").textContent = `Documents of case ${legal.reference_number}`;
  list.replaceChildren(...legal.documents.map((document) => {
    const label = `Document ${document.number} of case ${legal.reference_number}`;
    const link = el("a", { href: document.url, target: "_blank", rel: "noopener" });
    if (document.image) {
      link.append(el("img", {
        src: document.url,
        alt: label,
        className: "listing-photo case-photo",
        width: 96,
        height: 72,
      }));
    } else {
      link.append(`${label} (${document.mime_type.split("/").pop()})`);
    }
    return el("li", {}, link);
  }));
  const hints = [];
  if (!legal.documents.length && !legal.unlinked) hints.push("The client sent no documents.");
  if (legal.unlinked) hints.push(`${legal.unlinked} document(s) could not be linked.`);
  $("case-documents-hint").textContent = hints.join(" ");
}

function renderDetail() {
  const { ticket, messages, notes } = state.detail;
  const mine = ticket.status === "claimed" && ticket.assigned_to === myId();

  $("ticket-heading").textContent = ticket.reason;
  $("ticket-summary").textContent = ticket.summary;
  $("ticket-facts").replaceChildren(
    ...fact("Status", capitalise(ticket.status)),
    ...fact(
      "Priority",
      el("span", { className: `badge priority-${ticket.priority}` }, capitalise(ticket.priority)),
    ),
    ...fact("Channels", channelsText(ticket)),
    ...(ticket.agent_name ? fact("Agent", ticket.agent_name) : []),
    ...(ticket.language ? fact("Language", LANGUAGES[ticket.language] ?? ticket.language) : []),
    ...(ticket.last_message ? fact("Last message", ticket.last_message) : []),
    ...fact("Requester", requesterText(ticket)),
    ...fact("Assignee", assigneeText(ticket)),
    ...fact("Waiting", formatAge(ticket.age_sec), " (opened ", timeElement(ticket.created_at), ")"),
    ...fact("WhatsApp", windowText(ticket)),
    ...(ticket.payment ? fact("Payment", paymentText(ticket.payment)) : []),
  );
  // A payment ticket whose charge still waits: staff may confirm the money arrived.
  $("confirm-payment").hidden = ticket.payment?.status !== "pending";

  const visible = {
    claim: ticket.status === "open",
    release: mine,
    resolve: ticket.status === "open" || mine,
    reopen: ticket.status === "resolved",
  };
  for (const button of document.querySelectorAll("[data-action]")) {
    button.hidden = !visible[button.dataset.action];
  }

  renderCaseDocuments(state.detail.legal_case);

  const transcript = $("transcript");
  const transcriptKey = messages.map((m) => m.id).join();
  if (transcript.dataset.key !== transcriptKey) {
    transcript.dataset.key = transcriptKey;
    transcript.replaceChildren(...messages.map((message) => messageItem(message, ticket)));
  }
  $("transcript-empty").hidden = messages.length > 0;

  const notesList = $("notes");
  const notesKey = notes.map((n) => n.id).join();
  if (notesList.dataset.key !== notesKey) {
    notesList.dataset.key = notesKey;
    notesList.replaceChildren(...notes.map((note) =>
      el(
        "li",
        { className: "note" },
        el(
          "p",
          { className: "note-meta" },
          note.author_name ?? "Staff",
          " · ",
          timeElement(note.created_at),
        ),
        el("p", { className: "note-body" }, note.body),
      )
    ));
  }
  $("notes-empty").hidden = notes.length > 0;
  $("note-form").hidden = false;

  const replyForm = $("reply-form");
  replyForm.hidden = false;
  const canReply = mine && Boolean(ticket.convo_id);
  const hints = [];
  if (!ticket.convo_id) hints.push("This ticket has no WhatsApp conversation to reply to.");
  else if (ticket.status === "resolved") hints.push("Reopen and claim this ticket to reply.");
  else if (!mine && ticket.assigned_to) hints.push(`${assigneeText(ticket)}: only they can reply.`);
  else if (!mine) hints.push("Claim this ticket to reply.");
  if (ticket.convo_id && !ticket.window_open) {
    hints.push("Outside 24 h window: a template will be sent.");
  }
  $("reply-hint").textContent = hints.join(" ");
  $("reply-text").disabled = !canReply;
  $("reply-send").disabled = !canReply;
}

function messageItem(message, ticket) {
  const who = message.sender === "user"
    ? ticket.requester?.name ?? SENDERS.user
    : SENDERS[message.sender] ?? capitalise(message.sender);
  return el(
    "li",
    { className: `bubble ${message.direction === "inbound" ? "inbound" : "outbound"}` },
    el("p", { className: "bubble-meta" }, who, " · ", timeElement(message.created_at)),
    message.body ? el("p", { className: "bubble-body" }, message.body) : null,
    message.attachment ? attachmentItem(message) : null,
  );
}

// ------------------------------------------------------------ attachments

const FILE_KINDS = {
  image: "Photo",
  document: "Document",
  audio: "Voice note",
  video: "Video",
  sticker: "Sticker",
};

function formatSize(bytes) {
  if (typeof bytes !== "number") return "";
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/**
 * A location (an OpenStreetMap link with the coarse coordinates the API
 * gives), an image (a thumbnail) or a document (a download link). Files are
 * reached through a short-lived link the API signs for this staff member.
 */
function attachmentItem(message) {
  const attachment = message.attachment;
  if (attachment.kind === "location") {
    const { latitude, longitude } = attachment;
    const map = `https://www.openstreetmap.org/?mlat=${latitude}&mlon=${longitude}` +
      `#map=16/${latitude}/${longitude}`;
    const place = [attachment.name, attachment.address].filter(Boolean).join(", ");
    return el(
      "p",
      { className: "attachment attachment-location" },
      "📍 ",
      el(
        "a",
        { href: map, target: "_blank", rel: "noopener noreferrer" },
        place || "Shared location",
        ` (${latitude}, ${longitude})`,
      ),
    );
  }
  const label = FILE_KINDS[attachment.kind] ?? "File";
  const name = attachment.filename ?? label;
  const wrapper = el(
    "div",
    { className: `attachment attachment-${attachment.kind}` },
    // The caption is usually the message's text already.
    attachment.caption && attachment.caption !== message.body
      ? el("p", { className: "attachment-caption" }, attachment.caption)
      : null,
  );
  if (!attachment.available) {
    wrapper.append(
      el("p", { className: "attachment-missing" }, `${label}: ${name} (no file kept)`),
    );
    return wrapper;
  }
  const status = el("p", { className: "attachment-status" }, `Loading ${label.toLowerCase()}…`);
  wrapper.append(status);
  const path = `/messages/${encodeURIComponent(message.id)}/media`;
  api(path).then((link) => {
    if (attachment.kind === "image") {
      const alt = `${label} from the customer${
        attachment.caption ? `: ${attachment.caption}` : ""
      }`;
      const image = el("img", { className: "attachment-thumb", src: link.url, alt });
      status.replaceWith(el("a", { href: link.url, target: "_blank", rel: "noopener" }, image));
      return;
    }
    const size = formatSize(attachment.size);
    const anchor = el(
      "a",
      { href: link.url, download: link.filename, className: "attachment-download" },
      `Download ${name}`,
    );
    // The signed link lasts minutes: a click after that asks for a fresh one.
    let expiresAt = Date.parse(link.expires_at);
    anchor.addEventListener("click", (event) => {
      if (Date.now() < expiresAt - 10_000) return;
      event.preventDefault();
      api(path).then((fresh) => {
        expiresAt = Date.parse(fresh.expires_at);
        anchor.href = fresh.url;
        anchor.click();
      }).catch((error) => announce(`Cannot download ${name}: ${error.message}`));
    });
    status.replaceWith(el("p", {}, "📄 ", anchor, size ? ` (${size})` : ""));
  }).catch((error) => {
    status.textContent = `${label} unavailable: ${error.message}`;
  });
  return wrapper;
}

// --------------------------------------------------------------- actions

/** Runs a request for the open ticket with its button busy; shows failures. */
async function withTicket(button, work) {
  const id = state.selectedId;
  if (!id) return;
  $("action-error").textContent = "";
  button.disabled = true;
  button.setAttribute("aria-busy", "true");
  try {
    await work(id);
  } catch (error) {
    if (error.status !== 401 && id === state.selectedId) {
      $("action-error").textContent = error.message;
    }
  } finally {
    button.disabled = false;
    button.removeAttribute("aria-busy");
    // Show the outcome at once: the ticket, and the queue and its counts.
    if (id === state.selectedId && state.session) {
      await Promise.all([refreshDetail().catch(() => {}), poll().catch(() => {})]);
    }
  }
}

function paymentText(payment) {
  const amount = `${Number(payment.amount).toLocaleString("en")} RWF`;
  return `${payment.momo_ref}, ${amount}, ${payment.status}`;
}

async function confirmPayment(button) {
  const ref = state.detail?.ticket?.payment?.momo_ref;
  if (!ref) return;
  await withTicket(button, async () => {
    const data = await api(`/payments/${encodeURIComponent(ref)}/confirm`, {
      method: "POST",
      body: {},
    });
    announce(`Payment ${data.payment.momo_ref} is ${data.payment.status}.`);
  });
}

async function runAction(button) {
  const action = button.dataset.action;
  await withTicket(button, async (id) => {
    const data = await api(`/tickets/${encodeURIComponent(id)}/${action}`, {
      method: "POST",
      body: {},
    });
    if (state.tickets.has(id) || matchesFilters(data.ticket)) remember(data.ticket);
    announce(ACTION_DONE[action]);
  });
  // The clicked button may be hidden now: keep the keyboard user in the actions.
  if (button.hidden) {
    const next = [...document.querySelectorAll("[data-action]")].find((b) => !b.hidden);
    (next ?? $("ticket-heading")).focus();
  }
}

async function addNote(event) {
  event.preventDefault();
  const field = $("note-text");
  const text = field.value.trim();
  if (!text) {
    $("action-error").textContent = "Write a note first.";
    field.focus();
    return;
  }
  await withTicket($("note-add"), async (id) => {
    await api(`/tickets/${encodeURIComponent(id)}/notes`, { method: "POST", body: { text } });
    field.value = "";
    announce("Note added.");
  });
}

async function sendReply(event) {
  event.preventDefault();
  const field = $("reply-text");
  const text = field.value.trim();
  if (!text) {
    $("action-error").textContent = "Write a reply first.";
    field.focus();
    return;
  }
  // One key per message: a retry of the same text after a failure reuses it.
  if (state.reply?.text !== text) state.reply = { text, key: uuid() };
  const { key } = state.reply;
  await withTicket($("reply-send"), async (id) => {
    const data = await api(`/tickets/${encodeURIComponent(id)}/reply`, {
      method: "POST",
      body: { text },
      headers: { "idempotency-key": key },
    });
    state.reply = null;
    field.value = "";
    announce(
      data.sent_as === "template"
        ? "Reply sent as a WhatsApp template (outside the 24 h window)."
        : "Reply sent on WhatsApp.",
    );
  });
}

// -------------------------------------------------------------- assistant

/** One line of the assistant's conversation, with the options it offers as buttons. */
function assistantItem(from, text, options = []) {
  const item = el("li", { class: from === "staff" ? "from-staff" : "from-agent" });
  item.append(el("span", { class: "visually-hidden" }, from === "staff" ? "You: " : "Assistant: "));
  item.append(text);
  if (options.length) {
    const group = el("div", { class: "assistant-choices", role: "group", "aria-label": "Options" });
    for (const option of options) {
      const button = el("button", { type: "button", class: "secondary" }, option.title);
      button.addEventListener("click", () => askAssistant(option.title, option.id));
      group.append(button);
    }
    item.append(group);
  }
  return item;
}

function showAssistantReplies(replies) {
  const log = $("assistant-log");
  for (const reply of replies ?? []) {
    log.append(assistantItem("agent", reply.text, [...reply.buttons ?? [], ...reply.rows ?? []]));
  }
  log.scrollTop = log.scrollHeight;
}

/** The staff agents' menu, as the panel opens. */
async function loadAssistant() {
  try {
    const data = await api("/assistant");
    $("assistant-log").replaceChildren();
    showAssistantReplies(data.replies);
  } catch (error) {
    if (error.status !== 401) $("assistant-error").textContent = error.message;
  }
}

/** Sends words, or a tapped option (its title and id), to the desk or the agent picked. */
async function askAssistant(text, choice) {
  const button = $("assistant-send");
  $("assistant-error").textContent = "";
  // One key per message: a retry of the same message after a failure reuses it.
  if (state.assistant?.text !== text || state.assistant?.choice !== choice) {
    state.assistant = { text, choice, key: uuid() };
  }
  const { key } = state.assistant;
  button.disabled = true;
  try {
    const data = await api("/assistant", {
      method: "POST",
      body: choice ? { text, choice } : { text },
      headers: { "idempotency-key": key },
    });
    state.assistant = null;
    $("assistant-log").append(assistantItem("staff", text));
    showAssistantReplies(data.replies);
    return true;
  } catch (error) {
    $("assistant-error").textContent = error.message;
    return false;
  } finally {
    button.disabled = false;
  }
}

async function sendAssistant(event) {
  event.preventDefault();
  const field = $("assistant-text");
  const text = field.value.trim();
  if (!text) {
    $("assistant-error").textContent = "Write a message first.";
    field.focus();
    return;
  }
  if (await askAssistant(text)) field.value = "";
}

// ----------------------------------------------------------------- wiring

async function onSignIn(event) {
  event.preventDefault();
  const login = $("signin-login");
  const password = $("signin-password");
  const error = $("signin-error");
  const button = $("signin-submit");
  login.removeAttribute("aria-invalid");
  password.removeAttribute("aria-invalid");
  if (!login.value.trim() || !password.value) {
    error.textContent = "Enter your email or phone and your password.";
    (login.value.trim() ? password : login).setAttribute("aria-invalid", "true");
    (login.value.trim() ? password : login).focus();
    return;
  }
  error.textContent = "";
  button.disabled = true;
  try {
    const session = await passwordGrant(login.value, password.value);
    password.value = "";
    if (await enterInbox(session)) $("queue-heading").focus();
  } catch (failure) {
    error.textContent = failure.message;
    password.setAttribute("aria-invalid", "true");
  } finally {
    button.disabled = false;
  }
}

function onKeydown(event) {
  if (event.key !== "Escape" || document.body.dataset.view !== "detail") return;
  const target = event.target;
  // Do not throw away a draft: Escape in a non-empty text box stays there.
  if (target instanceof HTMLTextAreaElement && target.value.trim()) return;
  if (target instanceof HTMLSelectElement) return;
  event.preventDefault();
  goBack();
}

function start() {
  $("signin-form").addEventListener("submit", onSignIn);
  $("sign-out").addEventListener("click", () => {
    signOut();
    $("signin-login").focus();
  });
  $("filters").addEventListener("change", () => loadQueue());
  $("filters").addEventListener("submit", (event) => event.preventDefault());
  $("back").addEventListener("click", goBack);
  for (const button of document.querySelectorAll("[data-action]")) {
    button.addEventListener("click", () => runAction(button));
  }
  $("note-form").addEventListener("submit", addNote);
  $("confirm-payment").addEventListener("click", () => confirmPayment($("confirm-payment")));
  $("reply-form").addEventListener("submit", sendReply);
  $("assistant-form").addEventListener("submit", sendAssistant);
  document.addEventListener("keydown", onKeydown);
  addEventListener("hashchange", () => route());
  document.addEventListener("visibilitychange", () => {
    // Hidden tab: no polling. Visible again: catch up at once.
    if (document.hidden) clearTimeout(state.timer);
    else if (state.session && state.me) tick();
  });

  if (!BASE_URL) {
    setView("signin");
    $("signin-error").textContent =
      "This page is not configured: config.js must set window.EASYMO_CONFIG.supabaseUrl.";
    return;
  }
  const session = loadSession();
  if (session) enterInbox(session);
  else setView("signin");
}

start();
