import { Option } from "clipanion";
import { BaseCommand } from "./base.js";

/** The remote-cache flags of the commands that run the task graph (`inter build`, `inter run`, `inter design suggest`). */
export abstract class RemoteCacheCommand extends BaseCommand {
  remote = Option.Boolean("--remote", true, {
    description: "Use the remote cache when one is configured (default); --no-remote keeps to the local cache",
  });
  remoteOnly = Option.Boolean("--remote-only", false, {
    description: "Take hits from the remote cache only, never from the local one",
  });

  protected get remoteMode(): "auto" | "off" | "only" {
    return this.remoteOnly ? "only" : this.remote ? "auto" : "off";
  }
}
