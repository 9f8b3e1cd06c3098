import { publicEnum } from "../../graphql/enums.ts";
import { spaceLanguages } from "./space.service.ts";

/** What a space pointer names: always a space (the public API's pointers carry their kind). */
export const SpacePointerTypeEnum = publicEnum<string>("SpacePointerType", "The kind of item a space pointer names.", {
  space: "A space.",
});

export const SpaceVisibilityEnum = publicEnum<string>("SpaceVisibility", "Who may see a space.", {
  public: "Anyone may read it, and it is listed.",
  unlisted: "Anyone with its URL may read it.",
  "share-link": "Visitors with an active share link's key.",
  "visitor-auth": "Visitors with a JWT signed by the site's visitor key.",
  "in-collection": "As its collection.",
  private: "Its organization's members, by their roles.",
});

/**
 * English names of the content languages, for the enum's descriptions. Written out rather than asked of
 * `Intl.DisplayNames`: that loads ICU's display-name data, resident in every process from the first call (the
 * schema is built at start; docs/performance.md has the figure), and its wording changes with Node's ICU version,
 * which would change schema.graphql.
 */
const languageNames: Record<(typeof spaceLanguages)[number], string> = {
  en: "English",
  fr: "French",
  de: "German",
  es: "Spanish",
  it: "Italian",
  pt: "Portuguese",
  "pt-br": "Brazilian Portuguese",
  ru: "Russian",
  ja: "Japanese",
  zh: "Chinese",
  yue: "Cantonese",
  ko: "Korean",
  ar: "Arabic",
  hi: "Hindi",
  nl: "Dutch",
  pl: "Polish",
  tr: "Turkish",
  sv: "Swedish",
  no: "Norwegian",
  da: "Danish",
  fi: "Finnish",
  el: "Greek",
  cs: "Czech",
  hu: "Hungarian",
  ro: "Romanian",
  th: "Thai",
  vi: "Vietnamese",
  id: "Indonesian",
  ms: "Malay",
  he: "Hebrew",
  uk: "Ukrainian",
  sk: "Slovak",
  bg: "Bulgarian",
  hr: "Croatian",
  lt: "Lithuanian",
  lv: "Latvian",
  et: "Estonian",
  sl: "Slovenian",
};

/** Content languages, by code (`pt-br` is `PT_BR`). */
export const LanguageEnum = publicEnum<string>(
  "Language",
  "A content language, by its code (en, fr, pt-br, ...).",
  Object.fromEntries(spaceLanguages.map((code) => [code, `${languageNames[code]} (${code}).`])),
);
