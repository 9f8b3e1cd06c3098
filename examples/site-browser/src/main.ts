import type { OrganizationSitesQuery, Sdk } from "@docs-management-gateway/sdk";
import { button, byId, h } from "./dom.ts";
import { connectGateway, type Traffic } from "./gateway.ts";
import { type PageMove, type SiteListView, shownPage, siteListVariables } from "./list-variables.ts";
import { type SiteView, siteViewOf, withoutSiteSpace, withSiteSpace } from "./site-view.ts";

type Sites = NonNullable<OrganizationSitesQuery["organization"]>["sites"];
/** The opened section's id; `root` for the site spaces at the site's root. */
const root = "root";

const traffic: Traffic = { queries: 0, mutations: 0 };
let gateway: Sdk | undefined;
let organizations: { id: string; title: string }[] = [];
let organization: { id: string; title: string } | undefined;
let view: SiteListView = { order: "oldest", title: "", published: null, pageSize: 10 };
let sites: Sites | undefined;
let site: SiteView | undefined;
let openedSection: string | undefined;

const connectForm = byId<HTMLFormElement>("connect");
const filterForm = byId<HTMLFormElement>("site-filters");
const organizationsPanel = byId("organizations");
const sitesPanel = byId("sites");
const sitePanel = byId("site");

function showTraffic() {
  byId("queries-sent").textContent = String(traffic.queries);
  byId("mutations-sent").textContent = String(traffic.mutations);
}

function say(message: string) {
  byId("status").textContent = message;
}

/** Runs one step of the page, showing its error (the first GraphQL error's message when there is one). */
async function step(action: () => Promise<void>) {
  say("");
  try {
    await action();
  } catch (error) {
    const graphqlError = (error as { response?: { errors?: { message: string }[] } }).response?.errors?.[0];
    // A refused cross-origin request reaches the page as a bare network error.
    const hint = error instanceof TypeError ? ` (is the gateway up, with CORS_ORIGINS=${location.origin}?)` : "";
    say((graphqlError?.message ?? (error instanceof Error ? error.message : String(error))) + hint);
  }
}

function requireGateway(): Sdk {
  if (!gateway) throw new Error("Connect first");
  return gateway;
}

async function connect(gatewayUrl: string, token: string) {
  gateway = connectGateway(gatewayUrl, token, traffic, showTraffic);
  organizations = (await gateway.Organizations({ first: 100 })).organizations?.nodes ?? [];
  renderOrganizations();
}

function renderOrganizations() {
  const list = h("ul", { "aria-label": "Organizations" });
  for (const node of organizations) {
    const attributes = { class: "item", "aria-pressed": String(node.id === organization?.id) };
    list.append(
      h(
        "li",
        {},
        button(node.title, () => step(() => open(node)), attributes),
      ),
    );
  }
  organizationsPanel.querySelector("ul")?.replaceWith(list);
  organizationsPanel.hidden = false;
}

async function open(chosen: { id: string; title: string }) {
  organization = chosen;
  site = undefined;
  renderOrganizations();
  renderSite();
  await loadSites();
}

async function loadSites(move?: PageMove) {
  if (!organization) return;
  const answer = await requireGateway().OrganizationSites(siteListVariables(organization.id, view, move));
  if (!answer.organization) throw new Error("This organization is gone, or not yours to read");
  sites = answer.organization.sites;
  renderSites();
}

function renderSites() {
  if (!organization || !sites) return;
  const page = shownPage(sites);
  const list = h("ul", { "aria-label": "Sites" });
  for (const node of page.nodes) {
    const label = `${node.title}${node.published ? "" : " (unpublished)"}`;
    const attributes = { class: "item", "aria-pressed": String(node.id === site?.id) };
    list.append(
      h(
        "li",
        {},
        button(label, () => step(() => openSite(node.id)), attributes),
      ),
    );
  }
  sitesPanel.querySelector("h2")?.replaceChildren(`Sites of ${organization.title}`);
  sitesPanel.querySelector("ul")?.replaceWith(list);
  byId<HTMLButtonElement>("previous-sites").disabled = !page.hasPrevious;
  byId<HTMLButtonElement>("next-sites").disabled = !page.hasNext;
  byId("sites-summary").textContent = `${page.totalCount} site${page.totalCount === 1 ? "" : "s"}`;
  sitesPanel.hidden = false;
}

async function openSite(siteId: string) {
  if (!organization) return;
  const answer = await requireGateway().SiteSections({ organizationId: organization.id, siteId });
  site = answer.organization ? (siteViewOf(answer.organization) ?? undefined) : undefined;
  if (!site) throw new Error("This site is gone, or not yours to read");
  openedSection = site.sections.length === 0 ? root : undefined;
  renderSites();
  renderSite();
}

function renderSite() {
  sitePanel.hidden = !site;
  if (!site) return sitePanel.replaceChildren();
  const current = site;
  const scopes = [
    ...(current.rootSiteSpaces.length > 0 || current.sections.length === 0
      ? [{ id: root, title: "Site root", siteSpaces: current.rootSiteSpaces }]
      : []),
    ...current.sections,
  ];
  const sections = h("ul", { "aria-label": "Sections" });
  for (const scope of scopes) {
    const openScope = () => {
      openedSection = scope.id;
      renderSite();
    };
    const attributes = { class: "item", "aria-pressed": String(scope.id === openedSection) };
    sections.append(h("li", {}, button(scope.title, openScope, attributes), ` (${scope.siteSpaces.length})`));
  }
  sitePanel.replaceChildren(h("h2", {}, `Site: ${current.title}`), sections);
  const opened = scopes.find((scope) => scope.id === openedSection);
  if (opened) sitePanel.append(...siteSpacesOf(current, opened));
}

function siteSpacesOf(current: SiteView, scope: { id: string; title: string; siteSpaces: SiteView["rootSiteSpaces"] }) {
  const list = h("ul", { "aria-label": "Site spaces" });
  for (const siteSpace of scope.siteSpaces) {
    const remove = button("Remove", () => step(() => removeSiteSpace(siteSpace.id)), {
      "aria-label": `Remove ${siteSpace.title}`,
    });
    list.append(h("li", {}, `${siteSpace.title} `, h("code", {}, `/${siteSpace.path}`), " ", remove));
  }
  // A space shows once on a site: offer the organization's others.
  const shown = new Set(
    [...current.rootSiteSpaces, ...current.sections.flatMap((section) => section.siteSpaces)].map((s) => s.space?.id),
  );
  const choices = current.spaces.filter((space) => !shown.has(space.id));
  const select = h(
    "select",
    { name: "space", "aria-label": "Space to add" },
    ...choices.map((space) => h("option", { value: space.id }, space.title)),
  );
  const add = h("button", { type: "submit" }, "Add");
  add.disabled = choices.length === 0;
  const form = h("form", { "aria-label": "Add a space" }, select, add);
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    step(() => addSiteSpace(select.value, scope.id === root ? null : scope.id));
  });
  return [h("h3", {}, `Site spaces of ${scope.title}`), list, form];
}

/** Adds the space to the opened site, then shows the site space the mutation returned: no list is read again. */
async function addSiteSpace(spaceId: string, sectionId: string | null) {
  if (!organization || !site) return;
  const variables = { organizationId: organization.id, siteId: site.id, spaceId, sectionId };
  const { createSiteSpace } = await requireGateway().AddSpaceToSite(variables);
  if (!createSiteSpace?.siteSpace) throw new Error("The site is gone");
  site = withSiteSpace(site, createSiteSpace.siteSpace);
  renderSite();
}

/** Removes the site space, then drops the id the mutation answered from what is shown: no list is read again. */
async function removeSiteSpace(siteSpaceId: string) {
  if (!organization || !site) return;
  const { deleteSiteSpace } = await requireGateway().DeleteSiteSpace({
    organizationId: organization.id,
    siteId: site.id,
    siteSpaceId,
  });
  if (!deleteSiteSpace?.deletedId) throw new Error("The site is gone");
  site = withoutSiteSpace(site, deleteSiteSpace.deletedId);
  renderSite();
}

connectForm.addEventListener("submit", (event) => {
  event.preventDefault();
  const fields = new FormData(connectForm);
  step(() => connect(String(fields.get("gateway")), String(fields.get("token"))));
});

filterForm.addEventListener("submit", (event) => {
  event.preventDefault();
  const fields = new FormData(filterForm);
  const published = String(fields.get("published"));
  view = {
    order: fields.get("order") === "newest" ? "newest" : "oldest",
    title: String(fields.get("title")),
    published: published === "" ? null : published === "true",
    pageSize: Number(fields.get("pageSize")),
  };
  step(() => loadSites());
});

const move = (direction: PageMove["direction"]) => () => {
  const from = sites?.pageInfo;
  if (from) step(() => loadSites({ direction, from }));
};
byId("previous-sites").addEventListener("click", move("previous"));
byId("next-sites").addEventListener("click", move("next"));

// The gateway from `?gateway=` (else the one `npm start` runs), the token from `#token=`, which connects at once.
const gatewayInput = connectForm.elements.namedItem("gateway") as HTMLInputElement;
const tokenInput = connectForm.elements.namedItem("token") as HTMLInputElement;
gatewayInput.value = new URLSearchParams(location.search).get("gateway") ?? "http://localhost:4000";
tokenInput.value = new URLSearchParams(location.hash.slice(1)).get("token") ?? "";
if (tokenInput.value) connectForm.requestSubmit();
