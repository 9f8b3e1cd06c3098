import type { Config } from "../../platform/config.ts";

/**
 * Machine translation behind one interface. The operator picks a real provider (an HTTP machine-translation API
 * speaking LibreTranslate's protocol, or an OpenAI-compatible chat endpoint); without one, the built-in provider is
 * pseudo-localization, which only makes text look foreign so the whole flow can be tried offline.
 */
export interface TranslationProvider {
  /** Shown on translations (`provider`), so nobody mistakes pseudo-localization for a translation. */
  readonly name: "pseudo-localization" | "libretranslate" | "openai";
  translate(
    texts: string[],
    request: { from: string; to: string; instructions: string; signal?: AbortSignal },
  ): Promise<string[]>;
}

class TranslationProviderError extends Error {}

const pseudoLower = "àƀçđéƒĝĥîĵķĺɱñöþǫŕšţûṽŵẋýž";
const pseudoUpper = "ÀƁÇĐÉƑĜĤÎĴĶĹṀÑÖÞǪŔŠŢÛṼŴẊÝŽ";

/** Pseudo-localization: every ASCII letter becomes an accented look-alike; nothing else changes. */
function pseudoLocalize(text: string): string {
  return text.replace(/[a-zA-Z]/g, (letter) => {
    const code = letter.charCodeAt(0);
    return code >= 97 ? (pseudoLower[code - 97] as string) : (pseudoUpper[code - 65] as string);
  });
}

const pseudoProvider: TranslationProvider = {
  name: "pseudo-localization",
  translate: async (texts) => texts.map(pseudoLocalize),
};

const requestTimeoutMs = 60_000;

async function postJson(
  url: string,
  body: unknown,
  apiKey: string | undefined,
  signal: AbortSignal | undefined,
): Promise<unknown> {
  let response: Response;
  try {
    response = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}) },
      body: JSON.stringify(body),
      // The job's own abort (out of time, engine stopping) ends the request too.
      signal: signal
        ? AbortSignal.any([AbortSignal.timeout(requestTimeoutMs), signal])
        : AbortSignal.timeout(requestTimeoutMs),
    });
  } catch (error) {
    throw new TranslationProviderError(`The translation service could not be reached (${(error as Error).message})`);
  }
  if (!response.ok) throw new TranslationProviderError(`The translation service answered ${response.status}`);
  try {
    return await response.json();
  } catch {
    throw new TranslationProviderError("The translation service answered something that is not JSON");
  }
}

function checkedTexts(value: unknown, expected: number): string[] {
  if (!Array.isArray(value) || value.length !== expected || !value.every((item) => typeof item === "string")) {
    throw new TranslationProviderError(`The translation service did not answer ${expected} translated texts`);
  }
  return value;
}

/** LibreTranslate's `POST /translate` with a list of texts. */
function libreTranslateProvider(url: string, apiKey: string | undefined): TranslationProvider {
  return {
    name: "libretranslate",
    async translate(texts, { from, to, signal }) {
      const answer = (await postJson(
        `${url.replace(/\/$/, "")}/translate`,
        { q: texts, source: from, target: to, format: "text", ...(apiKey ? { api_key: apiKey } : {}) },
        undefined,
        signal,
      )) as { translatedText?: unknown };
      return checkedTexts(answer?.translatedText, texts.length);
    },
  };
}

/** An OpenAI-compatible `POST /chat/completions`: the texts go as a JSON array and must come back as one. */
function openAiProvider(url: string, apiKey: string | undefined, model: string): TranslationProvider {
  return {
    name: "openai",
    async translate(texts, { from, to, instructions, signal }) {
      const system = [
        `Translate each string of the JSON array from ${from} to ${to}.`,
        "Answer with a JSON array of the same length holding only the translations, in order.",
        "Keep leading and trailing spaces, numbers, names of code and URLs as they are.",
        instructions ? `Instructions from the documentation team: ${instructions}` : "",
      ]
        .filter(Boolean)
        .join(" ");
      const answer = (await postJson(
        `${url.replace(/\/$/, "")}/chat/completions`,
        {
          model,
          messages: [
            { role: "system", content: system },
            { role: "user", content: JSON.stringify(texts) },
          ],
        },
        apiKey,
        signal,
      )) as { choices?: { message?: { content?: unknown } }[] };
      const content = answer?.choices?.[0]?.message?.content;
      let parsed: unknown;
      try {
        parsed = JSON.parse(typeof content === "string" ? content : "");
      } catch {
        throw new TranslationProviderError("The chat model did not answer a JSON array");
      }
      return checkedTexts(parsed, texts.length);
    },
  };
}

export function translationProvider(config: Config): TranslationProvider {
  const url = config.translationApiUrl;
  if (config.translationProvider === "libretranslate" && url)
    return libreTranslateProvider(url, config.translationApiKey);
  if (config.translationProvider === "openai" && url) {
    return openAiProvider(url, config.translationApiKey, config.translationModel);
  }
  return pseudoProvider;
}
