import { describe, expect, it } from "vitest";
import { isLoopback, parseListen } from "../../src/runtime/mcp-http.js";

describe("--http <address>", () => {
  it("reads host:port, [v6]:port, :port and a bare port (loopback)", () => {
    expect(parseListen("127.0.0.1:8765")).toEqual({ host: "127.0.0.1", port: 8765 });
    expect(parseListen("localhost:0")).toEqual({ host: "localhost", port: 0 });
    expect(parseListen("[::1]:9000")).toEqual({ host: "::1", port: 9000 });
    expect(parseListen(":8765")).toEqual({ host: "127.0.0.1", port: 8765 });
    expect(parseListen("8765")).toEqual({ host: "127.0.0.1", port: 8765 });
    expect(parseListen("0.0.0.0:80")).toEqual({ host: "0.0.0.0", port: 80 });
  });

  it("refuses what is not an address, naming the flag", () => {
    for (const bad of ["", "host", "127.0.0.1:", "127.0.0.1:65536", "127.0.0.1:-1", "[::1", "a:b:1"]) {
      expect(() => parseListen(bad), bad).toThrow(
        expect.objectContaining({ code: "INVALID_VALUE", details: { flag: "http" } }),
      );
    }
  });

  it("knows loopback hosts from others", () => {
    for (const host of ["127.0.0.1", "127.1.2.3", "::1", "localhost"]) expect(isLoopback(host), host).toBe(true);
    for (const host of ["0.0.0.0", "192.168.1.2", "example.com", "::", "localhost.example.com"])
      expect(isLoopback(host), host).toBe(false);
  });
});
