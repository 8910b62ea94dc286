import { credentialHow, uncomputedSignatures } from "./auth.js";
import { alternativeNeeds, chooseAlternative, isSigV4, sourceOf, variablesOf } from "./credentials.js";
import { REGION_VARIABLES, regionalBaseUrl, signingRegion } from "./sigv4.js";
import { CliError } from "./errors.js";
import type { Cli } from "./load.js";
import type { AwsSigning, Command, Manifest, Requirement } from "./manifest.js";
import { cachedTokens } from "./oauth.js";

/**
 * `<binary> auth status`: which credential variables are set, which alternative each requirement of the CLI's commands
 * would use, and when cached OAuth tokens expire — names, counts and times, never a value (docs/generated-cli.md).
 */

const isSet = (name: string) => !!process.env[name];

const key = (r: Requirement) => Object.keys(r).sort().join(" + ");

export function authStatus(cli: Cli, commandName: string | undefined) {
  const { manifest } = cli;
  const schemes = Object.entries(manifest.auth.schemes).map(([name, scheme]) => {
    const source = sourceOf(scheme);
    return {
      scheme: name,
      type: scheme.type,
      variables: variablesOf(scheme).map((v) => ({ name: v, set: isSet(v) })),
      ready: !!source,
      ...(source?.kind === "oauth"
        ? {
            token: source.refresh
              ? "obtained with the refresh token"
              : source.client
                ? "obtained with the client credentials"
                : "the access token as given",
          }
        : {}),
      ...(scheme.signature
        ? {
            signature: isSigV4(scheme)
              ? `${scheme.signature.title}, computed by the CLI for every request`
              : `${scheme.signature.title} (${scheme.signature.by}): this CLI cannot compute it; the API refuses calls that need it unless the variable holds a signature valid for that very request`,
          }
        : {}),
      ...(scheme.aws ? { aws: awsStatus(manifest, scheme.aws) } : {}),
      how: credentialHow(name, scheme),
    };
  });
  const uncomputed = uncomputedSignatures(manifest);
  const unsupported = uncomputed.length
    ? {
        unsupported: uncomputed.map(
          (u) => `${u.scheme} requires requests signed with ${u.signature}, which this CLI cannot compute (${u.by})`,
        ),
      }
    : {};
  const tokens = cachedTokens(manifest).map(({ expiresAt, expired }) => ({
    ...(expiresAt ? { expiresAt } : {}),
    expired,
  }));
  if (commandName !== undefined) {
    const command = cli.all().find((c) => c.name === commandName.trim());
    if (!command)
      throw new CliError(
        "NOT_FOUND",
        `No command "${commandName}".`,
        `Run ${manifest.product.binary} --help for the commands.`,
        { command: commandName },
      );
    return { schemes, ...unsupported, command: commandStatus(cli, command), cachedTokens: tokens };
  }
  // Each distinct requirement of the CLI's commands once, with how many commands have it and one of them.
  const requirements = new Map<string, { requirement: Requirement; commands: Command[] }>();
  const none: Command[] = [];
  for (const command of cli.all()) {
    if (!command.auth.length) none.push(command);
    for (const r of command.auth) {
      const entry = requirements.get(key(r)) ?? { requirement: r, commands: [] };
      entry.commands.push(command);
      requirements.set(key(r), entry);
    }
  }
  return {
    schemes,
    ...unsupported,
    requirements: [...requirements.values()].map(({ requirement, commands }) => ({
      schemes: Object.keys(requirement),
      needs: alternativeNeeds(manifest, requirement),
      ready: Object.keys(requirement).every((n) => manifest.auth.schemes[n] && sourceOf(manifest.auth.schemes[n]!)),
      commands: commands.length,
      example: commands[0]!.name,
    })),
    withoutCredential: none.length,
    ready: cli.all().filter((c) => !c.auth.length || c.authOptional || chooseAlternative(manifest, c)).length,
    commands: cli.all().length,
    cachedTokens: tokens,
  };
}

/** Where AWS Signature Version 4 signs for now: the service, and the region with what chose it (never a credential). */
function awsStatus(manifest: Manifest, aws: AwsSigning) {
  const baseUrl = process.env[manifest.baseUrl.env] || regionalBaseUrl(manifest) || manifest.baseUrl.default;
  const chosen = signingRegion(aws, baseUrl ?? undefined);
  return {
    service: aws.service,
    region: chosen?.region ?? null,
    regionFrom: chosen?.from ?? `not set: export ${REGION_VARIABLES[0]} (the API's address names no region)`,
  };
}

function commandStatus(cli: Cli, command: Command) {
  const { manifest } = cli;
  const chosen = chooseAlternative(manifest, command);
  return {
    name: command.name,
    needed: command.auth.length > 0 && !command.authOptional,
    alternatives: command.auth.map((r) => ({
      schemes: Object.keys(r),
      needs: alternativeNeeds(manifest, r),
      ready: Object.keys(r).every((n) => manifest.auth.schemes[n] && sourceOf(manifest.auth.schemes[n]!)),
    })),
    uses: chosen ? Object.keys(chosen.requirement) : null,
    ...(command.auth.length && !chosen
      ? {
          missing: [
            ...new Set(
              command.auth.flatMap((r) => Object.keys(r).flatMap((n) => variablesOf(manifest.auth.schemes[n]!))),
            ),
          ].filter((v) => !isSet(v)),
        }
      : {}),
  };
}
