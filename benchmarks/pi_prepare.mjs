// Pi 1.6.0 doing what `tests/parity/driver.py prepare` does, for bench_pi.py to time:
// open the session file, build its context, prepare the next compaction.
//     node pi_prepare.mjs PI_PACKAGE_DIR FILE KEEP_RECENT RESERVE
// Prints the cut it chose, so that the benchmark can check both sides did the same work.
import { pathToFileURL } from "node:url";

const [dir, file, keep, reserve] = process.argv.slice(2);
const load = (path) => import(pathToFileURL(`${dir}/dist/core/${path}`).href);
const { SessionManager } = await load("session-manager.js");
const { prepareCompaction } = await load("compaction/compaction.js");

const manager = SessionManager.open(file);
const context = manager.buildSessionContext();
const prepared = prepareCompaction(manager.getBranch(), {
  enabled: true,
  reserveTokens: Number(reserve),
  keepRecentTokens: Number(keep),
});
console.log(
  JSON.stringify({
    messageCount: context.messages.length,
    firstKeptEntryId: prepared ? prepared.firstKeptEntryId : null,
    tokensBefore: prepared ? prepared.tokensBefore : null,
  }),
);
