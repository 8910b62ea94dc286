/**
 * A server's name in the MCP registry: `namespace/name`, the namespace reverse DNS of two labels or more
 * (`io.github.<login>`, `com.example`) — the registry grants no one-label namespace (`npm/…`). The config, the
 * package's server.json and `inter publish --mcp-name` hold names to it.
 */
export const MCP_NAME = /^[a-zA-Z0-9-]+(\.[a-zA-Z0-9-]+)+\/[a-zA-Z0-9._-]+$/;
