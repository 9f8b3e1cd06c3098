/**
 * What the current test file's `startTestApp` calls opened, closed (last opened first) after its tests by the setup
 * file `test/helpers/close-per-file.ts`. Apart from test/helpers/app.ts so that the setup file imports nothing of
 * the app: a test file's `vi.mock` must still apply to the modules it mocks.
 */
const openedByThisFile: (() => Promise<unknown>)[] = [];

export function closeAfterThisFile(close: () => Promise<unknown>): void {
  openedByThisFile.push(close);
}

export async function closeWhatThisFileOpened(): Promise<void> {
  for (const close of openedByThisFile.splice(0).reverse()) await close();
}
