const { options } = require("./.dependency-cruiser.cjs");

/**
 * No cycles between modules (folders of src/modules/): each module must be readable, testable and changeable with
 * only the modules below it. dependency-cruiser checks cycles between folders (`scope: "folder"`); this run looks at
 * src/modules/ alone, so that only module-to-module imports count (the main configuration sees all of src/).
 * @type {import('dependency-cruiser').IConfiguration}
 */
module.exports = {
  forbidden: [
    {
      name: "no-module-cycles",
      severity: "error",
      comment: "Two modules that import each other (even through other modules) are one module in two folders.",
      scope: "folder",
      from: { path: "^src/modules/" },
      to: { path: "^src/modules/", circular: true },
    },
  ],
  options: { ...options, includeOnly: "^src/modules/" },
};
