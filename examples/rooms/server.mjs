#!/usr/bin/env node
// The Rooms example API: a real HTTP server (node:http, in memory) behind examples/rooms/openapi.yaml.
// Usage: node examples/rooms/server.mjs [--port 4010]   (PORT=0 picks a free port; the first stdout line says which)
// The API key is ROOMS_SERVER_KEY (default "rooms-demo-key"), sent as the X-API-Key header.
import { createServer } from "node:http";

const KEY = process.env.ROOMS_SERVER_KEY || "rooms-demo-key";
const portArg = process.argv.indexOf("--port");
const PORT = Number(portArg > 0 ? process.argv[portArg + 1] : (process.env.PORT ?? 4010));

const rooms = [
  { id: "rm_atlas", name: "Atlas", capacity: 4, floor: 1, equipment: ["screen"] },
  { id: "rm_borealis", name: "Borealis", capacity: 6, floor: 1, equipment: ["screen", "whiteboard"] },
  { id: "rm_cosmos", name: "Cosmos", capacity: 8, floor: 2, equipment: ["screen", "video"] },
  { id: "rm_delta", name: "Delta", capacity: 10, floor: 2, equipment: ["whiteboard"] },
  { id: "rm_eclipse", name: "Eclipse", capacity: 12, floor: 3, equipment: ["screen", "video", "phone"] },
  { id: "rm_fjord", name: "Fjord", capacity: 20, floor: 3, equipment: ["screen", "video", "whiteboard"] },
];
const DURATIONS = [15, 30, 45, 60, 90, 120];
const bookings = [
  { id: "bk_0001", room_id: "rm_cosmos", date: "2026-12-01", start: "10:00", duration_minutes: 60, attendees: 6, title: "Design review", status: "confirmed" },
  { id: "bk_0002", room_id: "rm_atlas", date: "2026-12-01", start: "09:00", duration_minutes: 30, attendees: 3, title: "Stand-up", status: "confirmed" },
  { id: "bk_0003", room_id: "rm_cosmos", date: "2026-12-01", start: "14:00", duration_minutes: 90, attendees: 8, title: "Planning", status: "confirmed" },
  { id: "bk_0004", room_id: "rm_cosmos", date: "2026-12-02", start: "11:00", duration_minutes: 45, attendees: 4, title: "Interview", status: "confirmed" },
];
let nextBooking = bookings.length + 1;

const minutes = (hhmm) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));
const overlaps = (a, b) => a.date === b.date && minutes(a.start) < minutes(b.start) + b.duration_minutes && minutes(b.start) < minutes(a.start) + a.duration_minutes;
const isDate = (v) => typeof v === "string" && /^\d{4}-\d{2}-\d{2}$/.test(v) && !Number.isNaN(Date.parse(v));
const isTime = (v) => typeof v === "string" && /^([01]\d|2[0-3]):[0-5]\d$/.test(v);
const free = (roomId, slot) => !bookings.some((b) => b.room_id === roomId && b.status === "confirmed" && overlaps(b, slot));

class HttpError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

function page(list, query) {
  const limit = query.has("limit") ? Number(query.get("limit")) : 20;
  if (!Number.isInteger(limit) || limit < 1 || limit > 100) throw new HttpError(400, "INVALID_LIMIT", "limit must be an integer from 1 to 100");
  const start = query.has("cursor") ? Number(Buffer.from(query.get("cursor"), "base64url").toString()) : 0;
  if (!Number.isInteger(start) || start < 0) throw new HttpError(400, "INVALID_CURSOR", "cursor is not one this server issued");
  const data = list.slice(start, start + limit);
  const next = start + limit < list.length ? Buffer.from(String(start + limit)).toString("base64url") : null;
  return { data, next_cursor: next };
}

function slotFrom(source, { requireTitle }) {
  const { date, start, title } = source;
  const duration = Number(source.duration_minutes);
  const attendees = Number(source.attendees);
  if (!isDate(date)) throw new HttpError(400, "INVALID_DATE", "date must be YYYY-MM-DD");
  if (!isTime(start)) throw new HttpError(400, "INVALID_START", "start must be HH:MM (24-hour)");
  if (!DURATIONS.includes(duration)) throw new HttpError(400, "INVALID_DURATION", `duration_minutes must be one of ${DURATIONS.join(", ")}`);
  if (!Number.isInteger(attendees) || attendees < 1) throw new HttpError(400, "INVALID_ATTENDEES", "attendees must be a positive integer");
  if (requireTitle && (typeof title !== "string" || !title.trim())) throw new HttpError(400, "INVALID_TITLE", "title is required");
  return { date, start, duration_minutes: duration, attendees, ...(requireTitle ? { title: title.trim() } : {}) };
}

async function readBody(req) {
  const chunks = [];
  for await (const c of req) chunks.push(c);
  const text = Buffer.concat(chunks).toString("utf8");
  if (!text) return {};
  try {
    return JSON.parse(text);
  } catch {
    throw new HttpError(400, "INVALID_JSON", "the body is not valid JSON");
  }
}

const routes = [
  ["GET", /^\/health$/, () => ({ status: "ok" }), { open: true }],
  ["GET", /^\/rooms$/, (_m, q) => {
    const min = q.has("min_capacity") ? Number(q.get("min_capacity")) : 0;
    const floor = q.has("floor") ? Number(q.get("floor")) : undefined;
    return page(rooms.filter((r) => r.capacity >= min && (floor === undefined || r.floor === floor)), q);
  }],
  ["GET", /^\/rooms\/availability$/, (_m, q) => {
    const slot = slotFrom(Object.fromEntries(q), { requireTitle: false });
    return { data: rooms.filter((r) => r.capacity >= slot.attendees && free(r.id, slot)).sort((a, b) => a.capacity - b.capacity) };
  }],
  ["GET", /^\/rooms\/([^/]+)$/, (m) => rooms.find((r) => r.id === m[1]) ?? notFound("room", m[1])],
  ["GET", /^\/bookings$/, (_m, q) => {
    const status = q.get("status") ?? "confirmed";
    const list = bookings.filter((b) => b.status === status && (!q.has("room_id") || b.room_id === q.get("room_id")) && (!q.has("date") || b.date === q.get("date")));
    return page(list.sort((a, b) => (a.date + a.start).localeCompare(b.date + b.start) || a.id.localeCompare(b.id)), q);
  }],
  ["POST", /^\/bookings$/, async (_m, _q, req, res) => {
    const body = await readBody(req);
    const slot = slotFrom(body, { requireTitle: true });
    const room = rooms.find((r) => r.id === body.room_id) ?? notFound("room", body.room_id);
    if (slot.attendees > room.capacity) throw new HttpError(409, "OVER_CAPACITY", `${room.name} seats ${room.capacity}, not ${slot.attendees}`);
    if (!free(room.id, slot)) throw new HttpError(409, "SLOT_TAKEN", `${room.name} is already booked at ${slot.date} ${slot.start}`);
    const booking = { id: `bk_${String(nextBooking++).padStart(4, "0")}`, room_id: room.id, ...slot, status: "confirmed" };
    bookings.push(booking);
    res.statusCode = 201;
    return booking;
  }],
  ["GET", /^\/bookings\/([^/]+)$/, (m) => bookings.find((b) => b.id === m[1]) ?? notFound("booking", m[1])],
  ["POST", /^\/bookings\/([^/]+)\/cancel$/, (m) => {
    const booking = bookings.find((b) => b.id === m[1]) ?? notFound("booking", m[1]);
    if (booking.status === "cancelled") throw new HttpError(409, "ALREADY_CANCELLED", `booking ${booking.id} is already cancelled`);
    booking.status = "cancelled";
    return booking;
  }],
];

function notFound(kind, id) {
  throw new HttpError(404, "NOT_FOUND", `no ${kind} ${id ?? "(none given)"}`);
}

const server = createServer(async (req, res) => {
  const url = new URL(req.url, "http://localhost");
  res.setHeader("content-type", "application/json");
  try {
    const route = routes.find(([method, pattern]) => method === req.method && pattern.test(url.pathname));
    if (!route) throw new HttpError(404, "NO_ROUTE", `no route ${req.method} ${url.pathname}`);
    if (!route[3]?.open && req.headers["x-api-key"] !== KEY) throw new HttpError(401, "UNAUTHORIZED", "missing or wrong X-API-Key");
    const result = await route[2](url.pathname.match(route[1]), url.searchParams, req, res);
    res.end(JSON.stringify(result));
  } catch (error) {
    const status = error instanceof HttpError ? error.status : 500;
    res.statusCode = status;
    res.end(JSON.stringify({ code: error.code ?? "INTERNAL", message: error.message }));
  }
});

server.listen(PORT, "127.0.0.1", () => {
  process.stdout.write(`rooms example API listening on http://127.0.0.1:${server.address().port}\n`);
});
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => server.close(() => process.exit(0)));
