import { promisify } from "node:util";
import { type BrotliOptions, brotliCompress, constants, deflate, gzip, type ZlibOptions } from "node:zlib";
import { Response } from "@whatwg-node/fetch";
import Negotiator from "negotiator";
import { graphiqlAssetsPath } from "../web/graphiql-page.ts";
import type { Middleware } from "./pipeline.ts";

/** Bodies smaller than this go as they are: a few hundred bytes saved do not pay for the work and the header. */
export const compressionThresholdBytes = 1024;

type Encoding = "br" | "gzip" | "deflate";
type Bytes = Buffer<ArrayBuffer>;

/** Ours in order of preference, when the client weighs several alike; `identity` is the uncompressed body. */
const offered = ["br", "gzip", "deflate", "identity"];

/**
 * Text and JSON. Server-sent events and multipart answers (subscriptions, @defer/@stream) are not among them: they
 * are delivered part by part as the parts come, which a compressor would hold back. Formats compressed already
 * (images, PDFs, archives) would shrink by nothing.
 */
const compressibleType =
  /^(?:text\/(?!event-stream)|application\/(?:json|[\w.-]+\+json|javascript|xml|[\w.-]+\+xml|yaml|x-yaml)\b|image\/svg\+xml)/i;

/** On the libuv thread pool, off the event loop. zlib's output owns its memory (never shared), as a body must. */
const compressWith: Record<Encoding, (body: Buffer, options: BrotliOptions & ZlibOptions) => Promise<Bytes>> = {
  br: promisify(brotliCompress) as (body: Buffer, options: BrotliOptions) => Promise<Bytes>,
  gzip: promisify(gzip) as (body: Buffer, options: ZlibOptions) => Promise<Bytes>,
  deflate: promisify(deflate) as (body: Buffer, options: ZlibOptions) => Promise<Bytes>,
};

/**
 * brotli's default quality (11) takes seconds on a large body; 5 compresses GraphiQL's page nearly as well in a
 * fraction of that time, and a few hundred kilobytes of JSON in milliseconds. zlib's default level for the others.
 */
function compressionOptions(size: number): BrotliOptions & ZlibOptions {
  return { params: { [constants.BROTLI_PARAM_QUALITY]: 5, [constants.BROTLI_PARAM_SIZE_HINT]: size } };
}

/** The encoding the client prefers among ours, honouring its q-values; undefined for the body as it is. */
function negotiatedEncoding(acceptEncoding: string): Encoding | undefined {
  const negotiator = new Negotiator({ headers: { "accept-encoding": acceptEncoding } });
  // `preferred` (negotiator 1.x) breaks ties by our order instead of the header's; its typings predate it.
  const encoding = (negotiator.encoding as (available: string[], options: { preferred: string[] }) => string)(offered, {
    preferred: offered,
  });
  return encoding === "br" || encoding === "gzip" || encoding === "deflate" ? encoding : undefined;
}

/** Clients send a handful of distinct Accept-Encoding values: each is parsed once. */
const negotiatedCacheEntries = 64;

export interface Compression {
  /**
   * The response, compressed when the client accepts an encoding of ours and its body is text or JSON of at least
   * `compressionThresholdBytes`. `staticKey` names a body that is the same on every response of that key (the
   * GraphiQL page): it is compressed once per encoding and kept.
   */
  compress(request: Request, response: Response, staticKey?: string): Promise<Response>;
}

export function createCompression(): Compression {
  const negotiated = new Map<string, Encoding | undefined>();
  const compressedOnce = new Map<string, Promise<Bytes>>();

  function encodingFor(request: Request): Encoding | undefined {
    const header = request.headers.get("accept-encoding") ?? "";
    if (negotiated.has(header)) return negotiated.get(header);
    if (negotiated.size >= negotiatedCacheEntries) negotiated.clear();
    const encoding = negotiatedEncoding(header);
    negotiated.set(header, encoding);
    return encoding;
  }

  /** The body compressed, or as it was when it is below the threshold (its length was not declared). */
  async function encoded(
    encoding: Encoding,
    response: Response,
    staticKey: string | undefined,
  ): Promise<{ body: Bytes; compressed: boolean }> {
    if (staticKey === undefined) {
      const body = Buffer.from(await response.arrayBuffer());
      if (body.length < compressionThresholdBytes) return { body, compressed: false };
      return {
        body: await compressWith[encoding](body, compressionOptions(body.length)),
        compressed: true,
      };
    }
    const key = `${encoding} ${staticKey}`;
    let once = compressedOnce.get(key);
    if (once) await response.body?.cancel();
    else {
      // Kept before the body is read: requests arriving meanwhile wait for this one instead of compressing again.
      once = response
        .arrayBuffer()
        .then((bytes) => compressWith[encoding](Buffer.from(bytes), compressionOptions(bytes.byteLength)));
      compressedOnce.set(key, once);
      once.catch(() => compressedOnce.delete(key));
    }
    return { body: await once, compressed: true };
  }

  return {
    async compress(request, response, staticKey) {
      const { headers, status } = response;
      if (status < 200 || status === 204 || status === 304) return response;
      if (headers.has("content-encoding") || !compressibleType.test(headers.get("content-type") ?? "")) {
        return response;
      }
      const declaredLength = headers.get("content-length");
      if (declaredLength !== null && Number(declaredLength) < compressionThresholdBytes) return response;
      // From here the body sent depends on Accept-Encoding: caches must keep one answer per value.
      headers.append("vary", "Accept-Encoding");
      // HEAD has no body: its Content-Length stays the uncompressed one, which HTTP allows.
      const encoding = request.method === "HEAD" ? undefined : encodingFor(request);
      if (!encoding) return response;
      const { body, compressed } = await encoded(encoding, response, staticKey);
      const init = { status, statusText: response.statusText, headers };
      if (!compressed) return new Response(body, init);
      headers.set("content-encoding", encoding);
      headers.set("content-length", String(body.length));
      return new Response(body, init);
    },
  };
}

/**
 * `compress` as a step of the HTTP pipeline. GraphiQL's page and files are the same on every answer, so they are
 * compressed once.
 */
export function compressAnswers(compression: Compression): Middleware {
  return async (exchange, next) => {
    const response = await next(exchange);
    const { request, url } = exchange;
    const graphiqlHtml =
      url.pathname === "/graphql" && response.headers.get("content-type")?.startsWith("text/html") === true;
    const unchanging = graphiqlHtml || url.pathname.startsWith(graphiqlAssetsPath);
    return compression.compress(request, response, unchanging ? url.pathname : undefined);
  };
}
