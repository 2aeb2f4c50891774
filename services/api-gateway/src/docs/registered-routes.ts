import type { Express } from 'express';

/** The parts of express 5's router stack read here: routes, and routers mounted at the root. */
interface StackLayer {
  route?: { path: string | string[]; methods: Record<string, boolean> };
  handle?: { stack?: StackLayer[] };
  slash?: boolean;
}

export interface RegisteredRoute {
  /** Upper case, as in `GET`. */
  method: string;
  /** In OpenAPI form: `/v1/messages/{id}` for express's `/v1/messages/:id`. */
  path: string;
}

const toOpenApiPath = (expressPath: string): string => expressPath.replace(/:([A-Za-z0-9_]+)/g, '{$1}');

function collect(stack: StackLayer[], into: RegisteredRoute[]): void {
  for (const layer of stack) {
    if (layer.route) {
      const paths = Array.isArray(layer.route.path) ? layer.route.path : [layer.route.path];
      const methods = Object.keys(layer.route.methods).filter((m) => layer.route?.methods[m] && m !== '_all');
      for (const path of paths) for (const method of methods) into.push({ method: method.toUpperCase(), path: toOpenApiPath(path) });
    } else if (layer.slash && layer.handle?.stack) {
      collect(layer.handle.stack, into);
    }
  }
}

/**
 * Every method and path the app's routers answer, read from its router stack, so that a test can hold
 * the OpenAPI document to what the gateway really serves (docs/api.md#the-openapi-document).
 */
export function registeredRoutes(app: Express): RegisteredRoute[] {
  const routes: RegisteredRoute[] = [];
  collect((app.router as unknown as { stack: StackLayer[] }).stack, routes);
  return routes;
}
