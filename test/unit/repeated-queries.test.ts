import { describe, expect, it } from "vitest";
import { assertRepeatsCover } from "../../src/graphql/repeated-queries.ts";

describe("repeated queries skip yoga's HTTP-layer hooks only where declared", () => {
  const envelopOnly = { onParse() {}, onValidate() {}, onExecute() {} };
  const onParams = { onParams() {} };
  const onResponse = { onResultProcess() {}, onResponse() {} };

  it("accepts plugins with envelop hooks alone, and declared ones", () => {
    expect(() =>
      assertRepeatsCover([envelopOnly, onParams, onResponse], new Set([onParams, onResponse])),
    ).not.toThrow();
  });

  it("refuses a plugin with a hook a repeat would skip that is not declared, naming its hooks", () => {
    expect(() => assertRepeatsCover([envelopOnly, onParams], new Set())).toThrow(/has onParams, which repeated/);
    expect(() => assertRepeatsCover([onResponse], new Set([onParams]))).toThrow(/onResultProcess, onResponse/);
  });
});
