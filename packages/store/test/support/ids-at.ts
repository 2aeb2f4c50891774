import { newId, type IdPrefix } from '@switchboard/domain';

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** An id of `kind` made at `ms`: a new id's random part behind the ULID time prefix of that millisecond. */
export function idAt(kind: IdPrefix, ms: number): string {
  let time = '';
  for (let rest = ms, i = 0; i < 10; i++, rest = Math.floor(rest / 32)) time = CROCKFORD[rest % 32] + time;
  return `${kind}_${time}${newId(kind).slice(kind.length + 11)}`;
}
