import type { Express } from 'express';
import { match } from 'path-to-regexp';

/** The parts of express 5's router stack read here: routes, and routers mounted at the root. */
interface StackLayer {
  route?: { path: string | string[]; methods: Record<string, boolean> };
  handle?: { stack?: StackLayer[] };
  slash?: boolean;
}

interface RouteMethods {
  matches: (path: string) => boolean;
  methods: string[];
}

function routesOf(stack: StackLayer[]): RouteMethods[] {
  const routes: RouteMethods[] = [];
  for (const layer of stack) {
    if (layer.route) {
      const methods = Object.keys(layer.route.methods)
        .filter((m) => layer.route?.methods[m])
        .map((m) => m.toUpperCase());
      // Express answers HEAD with the GET route.
      if (methods.includes('GET')) methods.push('HEAD');
      const matchers = (Array.isArray(layer.route.path) ? layer.route.path : [layer.route.path]).map((path) =>
        match(path, { sensitive: false, end: true, trailing: true, decode: false }),
      );
      routes.push({ matches: (path) => matchers.some((m) => m(path) !== false), methods });
    } else if (layer.slash && layer.handle?.stack) {
      routes.push(...routesOf(layer.handle.stack));
    }
  }
  return routes;
}

/**
 * The methods that the routes registered on `app` answer for a path, derived from its router stack
 * on first use, so that a route added anywhere is in `Allow` without a list kept by hand.
 */
export function createAllowedMethods(app: Express): (path: string) => string[] {
  let routes: RouteMethods[] | null = null;
  return (path) => {
    routes ??= routesOf((app.router as unknown as { stack: StackLayer[] }).stack);
    const allowed = new Set<string>();
    for (const route of routes) if (route.matches(path)) for (const method of route.methods) allowed.add(method);
    return [...allowed].sort();
  };
}
