import type { Texts } from './texts';

/** The server's own sentences for people, in French (addressing them as « tu », as the app does). */
export const fr: Texts = {
  reply: {
    unavailable: 'Le modèle n’est pas disponible pour le moment. Réessaie plus tard.',
    loading: 'Le modèle est encore en train de démarrer. Renvoie ton message dans un instant.',
    unreachable: 'Le modèle est injoignable pour le moment. Réessaie dans un instant.',
    busy: 'Le modèle est occupé. Réessaie dans un instant.',
    failed: 'Le modèle n’a pas pu répondre pour le moment. Réessaie dans un instant.',
    timeout: 'Le modèle a mis trop de temps à répondre. Réessaie.',
    cut: 'La réponse s’est arrêtée avant la fin. Ce qui est arrivé est conservé.',
    empty: 'Le modèle n’a envoyé aucune réponse. Ton chat t’a été rendu.',
    notSaved: 'La réponse n’a pas pu être enregistrée. Réessaie.',
    internal: 'La réponse n’a pas pu être terminée. Ce qui est arrivé est conservé.',
    shutdown:
      'Le serveur redémarre. Ce qui est arrivé est conservé ; renvoie ton message dans un instant.',
  },
  room: {
    readOnly:
      'Ce mate n’est plus disponible. Tu peux relire ce chat, mais pas le poursuivre.',
  },
};
