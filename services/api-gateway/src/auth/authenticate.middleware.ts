import type { RequestHandler } from 'express';
import { hasScope, InsufficientScopeError, type Scope } from '@switchboard/domain';
import { callerOf, setCaller } from '../http/request-context';
import type { ApiKeyAuthenticator } from './api-key.authenticator';

export function authenticate(authenticator: ApiKeyAuthenticator): RequestHandler {
  return (req, res, next) => {
    authenticator(req.headers.authorization).then((caller) => {
      setCaller(res, caller);
      next();
    }, next);
  };
}

export function requireScope(scope: Scope): RequestHandler {
  return (_req, res, next) => {
    next(hasScope(callerOf(res).scopes, scope) ? undefined : new InsufficientScopeError(scope));
  };
}
