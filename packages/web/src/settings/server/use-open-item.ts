import { useSearchParams } from 'react-router';
import type { Snowflake } from '../../lib/api/types.js';

/** The query parameter naming the role or channel a section has open in its editor. */
export const OPEN_PARAM = 'open';

/**
 * The item (role, channel) a section has open, kept in the URL: the browser's back leaves the editor, and the phone
 * layout's header back goes up to the section's list rather than past it.
 */
export function useOpenItem(): [Snowflake | null, (id: Snowflake | null) => void] {
  const [params, setParams] = useSearchParams();
  return [params.get(OPEN_PARAM), (id) => setParams(id ? { [OPEN_PARAM]: id } : {})];
}
