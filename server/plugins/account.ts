/** GET /v1/account: plan, every allowance and what is left of it. */
import type { Plugin } from '@hapi/hapi';
import Joi from 'joi';
import { API_AUTH, credentialsOf } from '../auth.js';
import type { AppContext } from '../context.js';
import { AUTH_CODES, AccountSchema, responses } from '../schemas.js';

const optionsSchema = Joi.object({ app: Joi.object().required() });

export const accountPlugin: Plugin<{ app: AppContext }> = {
  name: 'account',
  register(server, options) {
    Joi.assert(options, optionsSchema);
    const { app } = options;
    server.route({
      method: 'GET',
      path: '/v1/account',
      options: {
        auth: API_AUTH,
        tags: ['api', 'account'],
        description: 'The account: plan, allowances (trial: total/used/left; monthly: total/used/left/reset_at) and plan limits',
        plugins: { 'hapi-swagger': { responses: responses({ 200: { description: 'The account', schema: AccountSchema } }, AUTH_CODES) } },
      },
      handler(request) {
        const { account } = credentialsOf(request);
        return app.services.accounts.view(app.services.accounts.get(account.id));
      },
    });
  },
};
