import { useContext } from 'react';
import type { AdminApi } from '../../client/admin.js';
import { AdminApiContext } from '../context.js';

/** The admin client the app was started with (a real `AdminClient`, or a fake in tests). */
export function useAdmin(): AdminApi {
  const client = useContext(AdminApiContext);
  if (!client) throw new Error('useAdmin() outside <AdminApiContext.Provider>');
  return client;
}
