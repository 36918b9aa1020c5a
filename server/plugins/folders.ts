/** /v1/folders: the dashboard folders that hold one batch each. */
import type { Plugin } from '@hapi/hapi';
import Joi from 'joi';
import { API_AUTH, credentialsOf } from '../auth.js';
import type { AppContext } from '../context.js';
import { AUTH_CODES, FolderSchema, IdParam, responses } from '../schemas.js';

const optionsSchema = Joi.object({ app: Joi.object().required() });

export const foldersPlugin: Plugin<{ app: AppContext }> = {
  name: 'folders',
  register(server, options) {
    Joi.assert(options, optionsSchema);
    const { app } = options;
    const { folders, jobs } = app.services;
    server.route([
      {
        method: 'GET',
        path: '/v1/folders',
        options: {
          auth: API_AUTH,
          tags: ['api', 'folders'],
          description: 'List folders, newest first',
          plugins: {
            'hapi-swagger': {
              responses: responses(
                { 200: { description: 'Folders', schema: Joi.object({ folders: Joi.array().items(FolderSchema) }).label('FolderList') } },
                AUTH_CODES,
              ),
            },
          },
        },
        handler(request) {
          const { account } = credentialsOf(request);
          return { folders: folders.list(account.id).map((f) => folders.view(f)) };
        },
      },
      {
        method: 'DELETE',
        path: '/v1/folders/{id}',
        options: {
          auth: API_AUTH,
          tags: ['api', 'folders'],
          description: 'Delete a folder with every job and result in it',
          validate: { params: IdParam('fld') },
          plugins: { 'hapi-swagger': { responses: responses({ 204: { description: 'Deleted' } }, [...AUTH_CODES, 'not_found']) } },
        },
        async handler(request, h) {
          const { account } = credentialsOf(request);
          const folder = folders.getOwned(String(request.params.id), account.id);
          await folders.remove(folder, jobs);
          await app.store.flush();
          return h.response().code(204);
        },
      },
    ]);
  },
};
