import { isAsyncIterable, type Plugin, processRegularResult } from "graphql-yoga";
import { jsonResponse } from "../web/json-response.ts";

/** A result processor, as `onResultProcess` sets one (yoga does not export the type by name). */
type ResultProcessor = Parameters<Parameters<NonNullable<Plugin["onResultProcess"]>>[0]["setResultProcessor"]>[0];

const regularMediaTypes = ["application/graphql-response+json", "application/json"];

/**
 * The media type yoga's result processors would answer a single result with, or undefined when it would not use a
 * plain JSON body: the last match over the Accept header's types (utf-8 only) and the processors' types, as yoga
 * (its `useResultProcessors`) settles it.
 */
function regularMediaType(accept: string | null): string | undefined {
  let chosen: string | undefined;
  const asked = (accept || "*/*").replace(/\s/g, "").toLowerCase().split(",").reverse();
  for (const entry of asked) {
    const [mediaType = "", ...parameters] = entry.split(";");
    const charset = parameters.find((parameter) => parameter.includes("charset=")) ?? "charset=utf-8";
    if (charset !== "charset=utf-8") continue;
    const [askedType, askedSubtype] = mediaType.split("/");
    for (const candidate of regularMediaTypes) {
      const [type, subtype] = candidate.split("/");
      if ((askedType === "*" || askedType === type) && (askedSubtype === "*" || askedSubtype === subtype)) {
        chosen = candidate;
      }
    }
  }
  return chosen;
}

/** Clients send a handful of distinct Accept values: each is settled once (past this many, all again). */
const settledAcceptValues = 64;

/** `regularMediaType` settled once per distinct Accept value. */
export function createMediaTypes() {
  const settled = new Map<string | null, string | undefined>();
  return {
    of(accept: string | null): string | undefined {
      if (settled.has(accept)) return settled.get(accept);
      if (settled.size >= settledAcceptValues) settled.clear();
      const mediaType = regularMediaType(accept);
      settled.set(accept, mediaType);
      return mediaType;
    },
  };
}

/**
 * yoga's answer to a single result, with the body of a plain success (no errors, no HTTP extensions, the default
 * serializer) encoded to UTF-8 once (`jsonResponse`): yoga's `processRegularResult` hands the text to the fetch
 * ponyfill, which measures its UTF-8 length, and the node adapter then encodes it again to write it. A nested read's
 * 282 KB went through both passes (twice as slow as one when a title holds an emoji). Any other result is yoga's to
 * answer, with its status and headers.
 */
export const answerResult: ResultProcessor = (result, fetchAPI, mediaType) => {
  if (
    Array.isArray(result) ||
    isAsyncIterable(result) ||
    result.errors?.length ||
    result.extensions?.http ||
    (result.stringify && result.stringify !== JSON.stringify)
  ) {
    return processRegularResult(result, fetchAPI, mediaType);
  }
  return jsonResponse(result, { contentType: `${mediaType}; charset=utf-8` });
};

/** Answers the results yoga would answer with `processRegularResult` through `answerResult`. */
export function jsonAnswers(): Plugin {
  const mediaTypes = createMediaTypes();
  return {
    onResultProcess({ request, resultProcessor, setResultProcessor }) {
      if (resultProcessor !== processRegularResult) return;
      const mediaType = mediaTypes.of(request.headers.get("accept"));
      if (mediaType) setResultProcessor(answerResult, mediaType);
    },
  };
}
