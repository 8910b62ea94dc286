import { chmodSync, copyFileSync, existsSync, mkdirSync, renameSync } from "node:fs";
import { dirname, join } from "node:path";
import { sha256 } from "../../core/hash.js";
import { SEALED_PATHS } from "./sandbox.js";

/**
 * The broker client as a small C program: the same protocol as broker-client.ts's Node script (broker-protocol.ts),
 * started at a small program's cost instead of a Node start's, which every call would pay — and agents make many
 * calls. It is compiled with the system's `cc` when there is one, for sealed attempts, whose socket is always at
 * SEALED_PATHS.socket; otherwise the Node client is used. It is kept in the evaluation folder, compiled once per folder,
 * not in the user's cache: a program an unsealed attempt's agent could replace there would run in every later sealed
 * attempt of every project.
 */
const SOURCE = String.raw`
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

static int sock = -1;
static int sigpipe_fds[2];

static void on_signal(int sig) {
  unsigned char s = (unsigned char)sig;
  ssize_t ignored = write(sigpipe_fds[1], &s, 1);
  (void)ignored;
}

static int write_all(int fd, const void *buf, size_t n) {
  const char *p = buf;
  while (n) {
    ssize_t w = write(fd, p, n);
    if (w < 0) { if (errno == EINTR) continue; return -1; }
    p += w; n -= (size_t)w;
  }
  return 0;
}

static void send_frame(char type, const void *body, uint32_t len) {
  unsigned char head[5] = { (unsigned char)type, (unsigned char)(len >> 24), (unsigned char)(len >> 16), (unsigned char)(len >> 8), (unsigned char)len };
  if (write_all(sock, head, 5) < 0 || (len && write_all(sock, body, len) < 0)) { fputs("the evaluation's broker closed the call\n", stderr); exit(128); }
}

static char *req; static size_t req_len, req_cap;
static void put(const char *s, size_t n) {
  if (req_len + n > req_cap) { req_cap = (req_len + n) * 2 + 64; req = realloc(req, req_cap); if (!req) exit(127); }
  memcpy(req + req_len, s, n); req_len += n;
}
static void put_json_string(const char *s) {
  put("\"", 1);
  for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
    char esc[8];
    if (*p == '"' || *p == '\\') { esc[0] = '\\'; esc[1] = (char)*p; put(esc, 2); }
    else if (*p < 0x20) { snprintf(esc, sizeof esc, "\\u%04x", *p); put(esc, 6); }
    else put((const char *)p, 1);
  }
  put("\"", 1);
}

static const char *signal_name(int sig) {
  switch (sig) { case SIGINT: return "SIGINT"; case SIGTERM: return "SIGTERM"; case SIGHUP: return "SIGHUP"; default: return "SIGQUIT"; }
}
static int signal_number(const char *name) {
  if (!strcmp(name, "SIGINT")) return SIGINT; if (!strcmp(name, "SIGTERM")) return SIGTERM; if (!strcmp(name, "SIGHUP")) return SIGHUP;
  if (!strcmp(name, "SIGQUIT")) return SIGQUIT; if (!strcmp(name, "SIGKILL")) return SIGKILL; if (!strcmp(name, "SIGPIPE")) return SIGPIPE;
  if (!strcmp(name, "SIGSEGV")) return SIGSEGV; if (!strcmp(name, "SIGABRT")) return SIGABRT; return 0;
}

static void finish(const char *json, size_t n) {
  char buf[256]; size_t m = n < sizeof buf - 1 ? n : sizeof buf - 1;
  memcpy(buf, json, m); buf[m] = 0;
  int code = 128;
  char *c = strstr(buf, "\"code\":");
  if (c && c[7] != 'n') code = atoi(c + 7);
  char *s = strstr(buf, "\"signal\":\"");
  if (s) {
    char name[32] = {0}; s += 10;
    for (int i = 0; i < 31 && s[i] && s[i] != '"'; i++) name[i] = s[i];
    int sig = signal_number(name);
    if (sig) { signal(sig, SIG_DFL); raise(sig); }
  }
  exit(code);
}

int main(int argc, char **argv) {
  signal(SIGPIPE, SIG_IGN);
  if (pipe(sigpipe_fds) < 0) return 127;
  struct sigaction sa; memset(&sa, 0, sizeof sa); sa.sa_handler = on_signal;
  sigaction(SIGINT, &sa, NULL); sigaction(SIGTERM, &sa, NULL); sigaction(SIGHUP, &sa, NULL); sigaction(SIGQUIT, &sa, NULL);

  struct sockaddr_un addr; memset(&addr, 0, sizeof addr); addr.sun_family = AF_UNIX;
  strncpy(addr.sun_path, SOCKET_PATH, sizeof addr.sun_path - 1);
  sock = socket(AF_UNIX, SOCK_STREAM, 0);
  if (sock < 0 || connect(sock, (struct sockaddr *)&addr, sizeof addr) < 0) {
    fprintf(stderr, "the evaluation's broker is unreachable (%s): this call was not made\n", strerror(errno));
    return 127;
  }
  char cwd[4096];
  if (!getcwd(cwd, sizeof cwd)) strcpy(cwd, "/");
  put("{\"argv\":[", 9);
  for (int i = 1; i < argc; i++) { if (i > 1) put(",", 1); put_json_string(argv[i]); }
  put("],\"cwd\":", 8); put_json_string(cwd); put("}", 1);
  send_frame('Q', req, (uint32_t)req_len);

  static char io[65536];
  char *in = NULL; size_t in_len = 0, in_cap = 0;
  int stdin_open = 1;
  for (;;) {
    struct pollfd fds[3] = { { sock, POLLIN, 0 }, { sigpipe_fds[0], POLLIN, 0 }, { 0, POLLIN, 0 } };
    int n = poll(fds, stdin_open ? 3 : 2, -1);
    if (n < 0) { if (errno == EINTR) continue; return 128; }
    if (fds[1].revents & POLLIN) {
      unsigned char s;
      if (read(sigpipe_fds[0], &s, 1) == 1) { const char *name = signal_name(s); send_frame('K', name, (uint32_t)strlen(name)); }
    }
    if (stdin_open && (fds[2].revents & (POLLIN | POLLHUP | POLLERR | POLLNVAL))) {
      ssize_t r = (fds[2].revents & POLLNVAL) ? 0 : read(0, io, sizeof io);
      if (r > 0) send_frame('I', io, (uint32_t)r);
      else if (r == 0 || errno != EINTR) { send_frame('D', "", 0); stdin_open = 0; }
    }
    if (fds[0].revents & (POLLIN | POLLHUP | POLLERR)) {
      if (in_cap - in_len < sizeof io) { in_cap = in_cap * 2 + sizeof io; in = realloc(in, in_cap); if (!in) return 127; }
      ssize_t r = read(sock, in + in_len, in_cap - in_len);
      if (r <= 0) { if (r < 0 && errno == EINTR) continue; fputs("the evaluation's broker closed the call\n", stderr); return 128; }
      in_len += (size_t)r;
      size_t off = 0;
      while (in_len - off >= 5) {
        unsigned char *h = (unsigned char *)in + off;
        uint32_t len = ((uint32_t)h[1] << 24) | ((uint32_t)h[2] << 16) | ((uint32_t)h[3] << 8) | h[4];
        if (in_len - off < 5 + (size_t)len) break;
        char type = (char)h[0]; char *body = in + off + 5;
        if (type == 'O') write_all(1, body, len);
        else if (type == 'E') write_all(2, body, len);
        else if (type == 'X') finish(body, len);
        off += 5 + len;
      }
      memmove(in, in + off, in_len - off); in_len -= off;
    }
  }
}
`;

let compiled: Promise<string | undefined> | undefined;

/** The compiled client for sealed attempts, cached by its source's hash in `dir`; undefined when there is no `cc`. */
export function nativeClient(dir: string): Promise<string | undefined> {
  compiled ??= (async () => {
    if (process.env.INTER_BROKER_CLIENT === "node") return undefined;
    const source = SOURCE.replace("SOCKET_PATH", JSON.stringify(SEALED_PATHS.socket));
    const file = join(dir, `broker-client-${sha256(source).slice(0, 16)}`);
    if (existsSync(file)) return file;
    mkdirSync(dirname(file), { recursive: true });
    const { execa } = await import("execa");
    const tmp = `${file}.${process.pid}.tmp`;
    const result = await execa("cc", ["-O2", "-o", tmp, "-x", "c", "-"], {
      input: source,
      reject: false,
      timeout: 60_000,
    });
    if (result.exitCode !== 0) return undefined;
    renameSync(tmp, file);
    return file;
  })().catch(() => undefined);
  return compiled;
}

/** Puts the native client at `<binDir>/<binary>`. */
export function writeNativeClient(binDir: string, binary: string, client: string): void {
  mkdirSync(binDir, { recursive: true });
  const path = join(binDir, binary);
  copyFileSync(client, path);
  chmodSync(path, 0o755);
}
