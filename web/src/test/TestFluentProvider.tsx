// Fluent for tests in jsdom, with only the CSS rules a test can observe.
//
// jsdom's getComputedStyle matches every rule of every sheet against the element and its
// ancestors, and Testing Library calls it for each node it weighs (accessible names, hidden
// subtrees, pointer-events). With the ~1,100 rules Griffel inserts for a table screen that was
// 9-21 ms a call and two thirds of the web project's time. jsdom has no layout, so the only
// declarations that count are the ones that hide or disable an element, and the ones Fluent's focus
// manager (tabster) reads to tell whether a node is on screen (position, transform); those are kept.
import { createDOMRenderer, FluentProvider, RendererProvider, webLightTheme } from '@fluentui/react-components';
import type { ReactNode } from 'react';

const OBSERVABLE = /[{;]\s*(display|visibility|opacity|pointer-events|content-visibility|position|transform)\s*:/;

const renderer = createDOMRenderer(document, { unstable_filterCSSRule: (rule) => OBSERVABLE.test(rule) });

export function TestFluentProvider({ children }: { children: ReactNode }) {
  return (
    <RendererProvider renderer={renderer} targetDocument={document}>
      <FluentProvider theme={webLightTheme}>{children}</FluentProvider>
    </RendererProvider>
  );
}
