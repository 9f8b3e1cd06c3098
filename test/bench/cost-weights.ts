import { readFileSync } from "node:fs";
import { markdownSections } from "../../src/lib/markdown/text.ts";
import { markdownToDocument } from "../../src/lib/markdown/to-document.ts";
import { resultNodes } from "../../src/lib/query-cost.ts";
import { createBenchDataDirectory, send, startOurs, stopServer } from "./servers.ts";
import { siteStructureQuery } from "./workloads.ts";

// What a rate-limit point buys, measured (docs/performance.md, "What a point buys"): the CPU our server spends per
// node of an answer (the nested site read, served as npm start serves it), and the CPU a markdown conversion spends
// per byte (documents and search sections, on this process's thread). Their ratio is the weight of a converted byte
// in nodes (src/lib/query-cost.ts, `convertedBytesPerNode`). Run: `npm run bench:cost`.

const rounds = Number(process.env.COST_ROUNDS ?? 5);

/** User and system CPU of a process so far, in microseconds, from /proc. */
function processCpuMicroseconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.split(" ") ?? [];
  const ticks = Number(fields[11]) + Number(fields[12]);
  return (ticks * 1e6) / 100;
}

async function cpuPerAnswerNode(): Promise<number[]> {
  const data = await createBenchDataDirectory();
  const server = await startOurs({ DATA_DIR: data.dataDir, RUN_JOBS: "false" });
  try {
    const request = {
      method: "POST",
      path: "/graphql",
      headers: { authorization: `Bearer ${data.data.token}`, "content-type": "application/json" },
      body: JSON.stringify({ query: siteStructureQuery, variables: { id: data.data.organizationId } }),
    };
    const nodes = resultNodes(JSON.parse(await send(server.url, request)).data);
    for (let warm = 0; warm < 50; warm++) await send(server.url, request);
    const perNode: number[] = [];
    for (let round = 0; round < rounds; round++) {
      const pid = server.servingPids[0] as number;
      const before = processCpuMicroseconds(pid);
      const requests = 100;
      for (let index = 0; index < requests; index++) await send(server.url, request);
      perNode.push((processCpuMicroseconds(pid) - before) / requests / nodes);
    }
    return perNode;
  } finally {
    await stopServer(server);
    data.remove();
  }
}

/** Markdown of the syntax pages hold: headings, paragraphs with inline marks and links, lists, tables, code. */
function sampleMarkdown(): string {
  const section = (index: number) =>
    [
      `## Section ${index}`,
      "Some **bold** and _emphasised_ text with a [link](https://example.com/page) and `inline code`, then more " +
        "words a reader reads through before the next paragraph starts.",
      "- a first item\n- a second item with **marks**\n  - a nested item",
      "| column | other |\n|---|---|\n| one | two |\n| three | four |",
      "```ts\nconst answer = 42;\n```",
    ].join("\n\n");
  return ["# A page", ...Array.from({ length: 30 }, (_, index) => section(index))].join("\n\n");
}

function cpuPerConvertedByte(): number[] {
  const markdown = sampleMarkdown();
  const bytes = Buffer.byteLength(markdown);
  for (let warm = 0; warm < 20; warm++) {
    markdownToDocument(markdown);
    markdownSections(markdown);
  }
  const perByte: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const before = process.cpuUsage();
    const conversions = 20;
    for (let index = 0; index < conversions; index++) {
      markdownToDocument(markdown);
      markdownSections(markdown);
    }
    const used = process.cpuUsage(before);
    // Two conversions of each text: a byte is converted once per kind a call asks for.
    perByte.push((used.user + used.system) / (2 * conversions) / bytes);
  }
  return perByte;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;

const node = median(await cpuPerAnswerNode());
const byte = median(cpuPerConvertedByte());
console.log(`CPU per answer node: ${(node * 1000).toFixed(0)} ns (median of ${rounds} rounds)`);
console.log(`CPU per converted byte: ${(byte * 1000).toFixed(0)} ns`);
console.log(`converted bytes per node of work: ${(node / byte).toFixed(2)}`);
