/*
 * Sites have no customization settings in this service yet, so every published site shows the public API's
 * defaults: the members `PublishedContentSite.customizations.site` requires, with the platform's stock values.
 */
const color = (light: string, dark: string) => ({ light, dark });

export const defaultSiteCustomization = {
  styling: {
    theme: "clean",
    primaryColor: color("#346DDB", "#346DDB"),
    infoColor: color("#787878", "#787878"),
    successColor: color("#00C950", "#00C950"),
    warningColor: color("#FE9A00", "#FE9A00"),
    dangerColor: color("#FB2C36", "#FB2C36"),
    corners: "rounded",
    depth: "subtle",
    links: "default",
    font: "Inter",
    monospaceFont: "IBMPlexMono",
    codeTheme: {
      default: { light: "default-light", dark: "default-dark" },
      openapi: { light: "default-light", dark: "default-dark" },
    },
    background: "plain",
    icons: "regular",
    sidebar: { background: "default", list: "default" },
    search: "subtle",
  },
  internationalization: { locale: "en" },
  favicon: {},
  header: { preset: "default", links: [] },
  footer: { groups: [] },
  themes: { default: "light", toggeable: true },
  pdf: { enabled: true },
  feedback: { enabled: false },
  ai: { mode: "none" },
  advancedCustomization: { enabled: false },
  trademark: { enabled: true },
  externalLinks: { target: "self" },
  pagination: { enabled: true },
  pageActions: { externalAI: true, markdown: true, mcp: false },
  git: { showEditLink: false },
  privacyPolicy: {},
  socialPreview: {},
  socialAccounts: [],
  insights: { trackingCookie: true },
} as const;
