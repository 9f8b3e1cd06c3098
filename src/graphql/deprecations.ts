/** The release that removes the deprecated names (CHANGELOG: deprecated names last one release). */
export const deprecatedNamesRemovedIn = "0.3.0";
