import { publicEnum } from "../../graphql/enums.ts";
import { spaceLanguages } from "./space.service.ts";

export const SpaceVisibilityEnum = publicEnum<string>("SpaceVisibility", "Who may see a space.", {
  public: "Anyone may read it, and it is listed.",
  unlisted: "Anyone with its URL may read it.",
  "share-link": "Visitors with an active share link's key.",
  "visitor-auth": "Visitors with a JWT signed by the site's visitor key.",
  "in-collection": "As its collection.",
  private: "Its organization's members, by their roles.",
});

const languageNames = new Intl.DisplayNames(["en"], { type: "language" });

/** Content languages, by code (`pt-br` is `PT_BR`). */
export const LanguageEnum = publicEnum<string>(
  "Language",
  "A content language, by its code (en, fr, pt-br, ...).",
  Object.fromEntries(spaceLanguages.map((code) => [code, `${languageNames.of(code) ?? code} (${code}).`])),
);
