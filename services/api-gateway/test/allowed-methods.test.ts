import express, { Router } from 'express';
import { createAllowedMethods } from '../src/http/allowed-methods';

describe('allowed methods derived from the registered routes', () => {
  const app = express();
  const items = Router();
  items.get('/items', () => undefined);
  items.post('/items', () => undefined);
  items.delete('/items/:id', () => undefined);
  app.use(items);
  const other = Router();
  other.put('/items/:id', () => undefined);
  app.use(other);
  const allowed = createAllowedMethods(app);

  it('unites the methods of every route matching the path, across routers, with HEAD for GET', () => {
    expect(allowed('/items')).toEqual(['GET', 'HEAD', 'POST']);
    expect(allowed('/items/it_1')).toEqual(['DELETE', 'PUT']);
    expect(allowed('/ITEMS/')).toEqual(['GET', 'HEAD', 'POST']);
  });

  it('finds nothing for an unknown path or one that does not decode', () => {
    expect(allowed('/nothing')).toEqual([]);
    expect(allowed('/items/a/b')).toEqual([]);
    expect(allowed('/items/%E0%A4%A')).toEqual(['DELETE', 'PUT']);
  });
});
