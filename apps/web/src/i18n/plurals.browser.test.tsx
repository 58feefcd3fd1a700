import { describe, expect, it } from 'vitest';
import { createI18n, loadScreenTexts, switchLanguage } from './i18n';

// Counts read as people write them: "1 chat", "2 chats", "1 seguidor", and in Spanish and
// French the CLDR "many" form (1,000,000) falls back to the plural, never to a bare key.
describe('plural rules', () => {
  it('English says 1 chat, 2 chats', async () => {
    await loadScreenTexts();
    const i18n = createI18n();
    const t = i18n.t.bind(i18n);
    expect(t('common.chats', { count: 1 })).toBe('1 chat');
    expect(t('common.chats', { count: 2 })).toBe('2 chats');
    // A card's count, shown compact: "1 chat", "1.2K chats".
    expect(t('common.chatsShort', { value: '1', count: 1 })).toBe('1 chat');
    expect(t('common.chatsShort', { value: '1.2K', count: 1234 })).toBe('1.2K chats');
    expect(t('common.goldCoins', { count: 1 })).toBe('1 gold coin');
    expect(t('common.followers', { count: 1 })).toBe('1 follower');
    expect(t('forYou.recentChats', { count: 1 })).toBe('1 chat this week');
    expect(t('detail.averageText', { average: 4, count: 1 })).toBe('4 out of 5 from 1 review');
  });

  it('Spanish says 1 seguidor, 2 seguidores, 1000000 seguidores', async () => {
    const i18n = createI18n();
    await switchLanguage(i18n, 'es');
    const t = i18n.t.bind(i18n);
    expect(t('common.followers', { count: 1 })).toBe('1 seguidor');
    expect(t('common.followers', { count: 2 })).toBe('2 seguidores');
    expect(t('common.followers', { count: 1_000_000 })).toBe('1000000 seguidores');
    expect(t('common.goldCoins', { count: 1 })).toBe('1 moneda de oro');
    expect(t('detail.averageText', { average: 4, count: 1 })).toBe('4 de 5 en 1 reseña');
  });

  it('French says 0 abonné, 1 abonné, 2 abonnés, 1000000 abonnés', async () => {
    const i18n = createI18n();
    await switchLanguage(i18n, 'fr');
    const t = i18n.t.bind(i18n);
    // CLDR French: 0 and 1 are both "one".
    expect(t('common.followers', { count: 0 })).toBe('0 abonné');
    expect(t('common.chatsShort', { value: '0', count: 0 })).toBe('0 chat');
    expect(t('common.followers', { count: 1 })).toBe('1 abonné');
    expect(t('common.followers', { count: 2 })).toBe('2 abonnés');
    expect(t('common.followers', { count: 1_000_000 })).toBe('1000000 abonnés');
    expect(t('common.goldCoins', { count: 1 })).toBe('1 pièce d’or');
    expect(t('forYou.recentChats', { count: 3 })).toBe('3 chats cette semaine');
    expect(t('detail.averageText', { average: 4, count: 1 })).toBe('4 sur 5 d’après 1 avis');
  });
});
