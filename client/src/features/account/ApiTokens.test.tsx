// @vitest-environment jsdom
/*
 * The account's API access tokens on the account page, against a fake server: a checkbox per
 * scope with lichess's words, the new token shown once (gone when hidden), the list without the
 * token's text, revoking after a confirmation, and the server's refusals in words.
 */
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ClientProvider } from '../../app/ClientProvider';
import { clientOnFakeSocket } from '../../app/testClient';
import { welcome } from '../../net/fakeSocket';
import { ApiTokens } from './ApiTokens';

afterEach(cleanup);

const TOKEN = 'k3Pq9ZrT0bWm5xYc2LnV8dHs4FgJ1uAe';
const INFO = { id: '8c41d0e9a7b2f356', description: 'my app', scopes: 'challenge:read,bot:play', created_at: 5, last_used_at: null };

function setup() {
  const { f, client } = clientOnFakeSocket();
  welcome(f.current, [], 'session-token', { id: 'a1', name: 'ann' });
  render(
    <ClientProvider client={client}>
      <ApiTokens />
    </ClientProvider>,
  );
  return { f };
}

/** Answers the last request of this type with msg (its id added). */
async function answer(f: ReturnType<typeof setup>['f'], type: string, msg: Record<string, unknown>) {
  await vi.waitFor(() => expect(f.current.last(type)).toBeDefined());
  const id = f.current.last(type)!.id;
  f.current.sent.length = 0;
  act(() => f.current.receive({ ...msg, id } as never));
}

describe('ApiTokens', () => {
  it('creates a token with the scopes ticked, shows it once, lists and revokes it', async () => {
    const { f } = setup();
    await answer(f, 'api_tokens_list', { type: 'api_tokens', tokens: [] });
    await screen.findByText('No API tokens yet.');
    const create = screen.getByRole('button', { name: 'Create token' }) as HTMLButtonElement;
    expect(create.disabled).toBe(true); // no description yet
    fireEvent.change(screen.getByLabelText('Token description'), { target: { value: ' my app ' } });
    fireEvent.click(screen.getByRole('checkbox', { name: 'Play games with the bot API (bot:play)' }));
    fireEvent.click(screen.getByRole('checkbox', { name: 'Read incoming challenges (challenge:read)' }));
    expect(screen.getAllByRole('checkbox')).toHaveLength(8);
    fireEvent.click(create);
    // Sent in the server's order whatever the order they were ticked in.
    await vi.waitFor(() => expect(f.current.last('api_token_create')).toMatchObject({ description: 'my app', scopes: 'challenge:read,bot:play' }));
    await answer(f, 'api_token_create', { type: 'api_token_created', token: TOKEN, info: INFO });
    const shown = await screen.findByRole('region', { name: 'New API token my app' });
    expect((screen.getByRole('textbox', { name: 'API token my app' }) as HTMLInputElement).value).toBe(TOKEN);
    expect(shown.textContent).toContain('you will not see it again');
    await answer(f, 'api_tokens_list', { type: 'api_tokens', tokens: [INFO] });
    const row = await screen.findByRole('listitem', { name: 'API token my app' });
    expect(row.textContent).toContain('challenge:read, bot:play');
    expect(row.textContent).not.toContain(TOKEN);
    // The form is cleared for the next one.
    expect((screen.getByLabelText('Token description') as HTMLInputElement).value).toBe('');
    expect(screen.getAllByRole('checkbox').every((c) => !(c as HTMLInputElement).checked)).toBe(true);

    fireEvent.click(screen.getByRole('button', { name: 'I have copied it, hide it' }));
    expect(screen.queryByText(TOKEN)).toBeNull();
    expect(screen.queryByRole('textbox', { name: 'API token my app' })).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: 'Revoke the API token my app' }));
    fireEvent.click(screen.getByRole('button', { name: 'Yes, revoke my app' }));
    await vi.waitFor(() => expect(f.current.last('api_token_revoke')).toMatchObject({ token_id: INFO.id }));
    await answer(f, 'api_token_revoke', { type: 'api_token_revoked', token_id: INFO.id });
    await answer(f, 'api_tokens_list', { type: 'api_tokens', tokens: [] });
    await screen.findByText('No API tokens yet.');
  });

  it('says why the server refused', async () => {
    const { f } = setup();
    await answer(f, 'api_tokens_list', { type: 'api_tokens', tokens: [] });
    fireEvent.change(screen.getByLabelText('Token description'), { target: { value: 'one too many' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create token' }));
    await answer(f, 'api_token_create', {
      type: 'error',
      code: 'TOO_MANY_TOKENS',
      message: 'you have as many API access tokens as an account may; revoke one first',
    });
    expect((await screen.findByRole('alert')).textContent).toBe('You have as many API access tokens as an account may; revoke one first.');
    expect(screen.queryByRole('region', { name: /^New API token/ })).toBeNull();
  });
});
