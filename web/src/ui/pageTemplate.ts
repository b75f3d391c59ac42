import { createContext, useContext } from "react";

/**
 * True while the build's prerender draws a pattern's one page for all its paths (games/_id.html is
 * every game's page until its code has loaded): the page shows its loading state, with no game
 * number or address of its own, for the app to replace with the real one.
 */
const PageTemplate = createContext(false);

export const PageTemplateProvider = PageTemplate.Provider;

export function useIsPageTemplate(): boolean {
  return useContext(PageTemplate);
}
