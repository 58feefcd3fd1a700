import type { LegalTexts } from './types';

/** The legal and help pages in French. */
export const fr: LegalTexts = {
  privacy: {
    title: 'Politique de confidentialité',
    updated: 'Dernière mise à jour le 26 novembre 2026',
    lead: 'Mates est un logiciel open source. Cette politique dit ce qu’une instance de Mates garde sur toi, pourquoi, et ce que tu peux y faire. La personne qui gère l’instance que tu utilises en est responsable ; si tu gères la tienne, tes données ne quittent jamais ta machine.',
    sections: [
      {
        heading: 'Ce que nous gardons',
        paragraphs: [
          'Ton compte : l’adresse e-mail avec laquelle tu t’es inscrit, un mot de passe conservé uniquement sous forme de hachage Argon2id, ton pseudo, ta langue et tes préférences (tags, filtre de genre, affichage ou non des mates pour adultes). Si tu te connectes avec Google ou Discord, nous gardons l’identifiant du compte et l’adresse que ces services confirment, et avec Discord ton nom d’affichage et ton image Discord.',
          'Ce que les autres voient : ton pseudo et ton image à côté de ce que tu publies (tes mates, tes avis), et les modérateurs les voient sur tes signalements. Un nouveau compte reçoit un pseudo généré, jamais tiré de ton adresse e-mail ni de ton nom Google ; tu peux le changer sur ton profil. Ton adresse e-mail n’est jamais montrée à personne.',
          'Ce que tu crées : tes chats et leurs messages, tes personas, tes favoris, les créateurs que tu suis, tes avis, tes signalements et tes messages à l’assistance.',
          'Les sessions : un jeton de connexion aléatoire par appareil, conservé uniquement sous forme de hachage, qui expire après 30 jours sans utilisation.',
        ],
      },
      {
        heading: 'Pourquoi nous le gardons',
        paragraphs: [
          'Pour faire fonctionner le service que tu as demandé : te connecter, te remontrer tes conversations et permettre à un mate de se souvenir de ce qui a été dit. Nous ne vendons pas tes données et nous n’utilisons pas tes chats pour te montrer de la publicité.',
        ],
      },
      {
        heading: 'Modèles de langage',
        paragraphs: [
          'Par défaut, les réponses sont écrites par un modèle qui tourne sur le même serveur, et tes messages ne vont nulle part ailleurs. Une instance peut être configurée pour utiliser plutôt un modèle hébergé ; les messages d’un chat, la fiche du mate et ta persona sont alors envoyés à ce fournisseur pour écrire chaque réponse. La personne qui gère l’instance doit nommer ce fournisseur.',
        ],
      },
      {
        heading: 'Combien de temps',
        paragraphs: [
          'Jusqu’à ce que tu les supprimes. Supprimer un chat supprime aussitôt ses messages. Fermer ton compte supprime tout ce qui y est lié sous 30 jours, sauf ce que la loi nous oblige à conserver (comme les justificatifs de paiement).',
        ],
      },
      {
        heading: 'Tes droits',
        paragraphs: [
          'Tu peux consulter, corriger, exporter ou supprimer tes données, et t’opposer à leur utilisation. Écris-nous depuis la page d’assistance ; nous répondons sous 30 jours. Tu peux aussi porter plainte auprès de ton autorité de protection des données.',
        ],
      },
    ],
  },
  terms: {
    title: 'Conditions d’utilisation',
    updated: 'Dernière mise à jour le 23 novembre 2026',
    lead: 'Ces conditions encadrent ton utilisation de Mates. En créant un compte, tu les acceptes.',
    sections: [
      {
        heading: 'Qui peut utiliser Mates',
        paragraphs: [
          'Tu dois avoir au moins 18 ans, ou l’âge de la majorité là où tu vis s’il est plus élevé. Une personne, un compte ; garde ton mot de passe pour toi.',
        ],
      },
      {
        heading: 'Les mates sont de la fiction',
        paragraphs: [
          'Chaque mate est un personnage d’IA. Ce qu’il dit est généré par un modèle de langage : cela peut être faux, incohérent ou inattendu, et ce n’est jamais un conseil professionnel, médical, juridique ou financier. Ne compte pas sur un mate en cas d’urgence — appelle le numéro d’urgence de ton pays.',
        ],
      },
      {
        heading: 'Ce que tu crées',
        paragraphs: [
          'Tu gardes les droits sur les mates, les personas et les messages que tu écris. Tu accordes à la personne qui gère cette instance la licence nécessaire pour les conserver et te les montrer et, pour les mates que tu publies, les montrer aux autres. Tu garantis avoir le droit de publier ce que tu importes, y compris les fiches de personnage et les images.',
        ],
      },
      {
        heading: 'Règles',
        paragraphs: [
          'Respecte les règles de la communauté. Nous pouvons retirer du contenu et suspendre les comptes qui les enfreignent, et nous te disons pourquoi quand nous le faisons.',
        ],
      },
      {
        heading: 'Chats et pièces',
        paragraphs: [
          'Les nouveaux comptes reçoivent des chats et des pièces d’or de bienvenue. Les offres en ajoutent. Une réponse qui échoue avant d’avoir envoyé le moindre texte ne consomme pas de chat.',
        ],
      },
      {
        heading: 'Le logiciel',
        paragraphs: [
          'Mates est fourni tel quel, sous sa licence open source, sans garantie. Rien dans ces conditions ne limite les droits que la loi de ton pays t’accorde et qu’un contrat ne peut pas limiter.',
        ],
      },
    ],
  },
  guidelines: {
    title: 'Règles de la communauté',
    updated: 'Dernière mise à jour le 23 novembre 2026',
    lead: 'Mates est un lieu d’histoires et de compagnie. Ces règles en font un lieu pour tout le monde.',
    sections: [
      {
        heading: 'Jamais autorisé',
        paragraphs: [
          'Tout contenu sexuel impliquant des mineurs, ou des personnages présentés comme mineurs — quoi qu’en dise la fiction. Ces mates sont retirés et le compte est fermé.',
          'Des personnes réelles dans un contenu sexuel ou humiliant, la divulgation de données personnelles, et les contenus qui menacent, harcèlent ou incitent à la violence ou à la haine contre des personnes pour ce qu’elles sont.',
        ],
      },
      {
        heading: 'Contenu pour adultes',
        paragraphs: [
          'Les mates pour adultes doivent être marqués comme réservés aux adultes. Ils ne sont montrés qu’aux personnes qui ont choisi de les voir dans leurs réglages.',
        ],
      },
      {
        heading: 'Respecte les créateurs',
        paragraphs: [
          'N’importe pas de personnages que tu n’as pas le droit de partager, et cite le créateur d’origine quand tu adaptes la fiche de quelqu’un.',
        ],
      },
      {
        heading: 'Avis',
        paragraphs: [
          'Donne ton avis sur le mate, pas sur la personne qui l’a créé. Pas de spam, pas de publicité, pas d’avis sur tes propres mates.',
        ],
      },
      {
        heading: 'Signalements',
        paragraphs: [
          'Si quelque chose enfreint ces règles, signale-le depuis la page du mate ou écris à l’assistance. Nous examinons chaque signalement.',
        ],
      },
    ],
  },
  faq: {
    title: 'Questions fréquentes',
    updated: '',
    lead: 'Des réponses courtes aux questions les plus posées.',
    sections: [
      {
        heading: 'Mates est-il gratuit ?',
        paragraphs: [
          'Chaque nouveau compte reçoit des chats de bienvenue. Les offres ajoutent des chats et des pièces d’or. Si tu gères Mates toi-même, c’est gratuit et illimité.',
        ],
      },
      {
        heading: 'Qui écrit les réponses ?',
        paragraphs: [
          'Un modèle de langage, qui joue le personnage décrit sur la fiche du mate. Par défaut, il tourne sur le même serveur que Mates.',
        ],
      },
      {
        heading: 'Une réponse s’est arrêtée en plein milieu. Est-elle perdue ?',
        paragraphs: [
          'Non. Ce qui est arrivé est conservé et marqué comme interrompu ; tu peux la régénérer, ou continuer à discuter. Une réponse qui a échoué avant d’avoir envoyé le moindre texte ne consomme pas de chat.',
        ],
      },
      {
        heading: 'Qu’est-ce qu’une persona ?',
        paragraphs: [
          'Qui tu es dans un chat : un nom et quelques lignes que le mate connaît sur toi. Définis-en une par défaut dans ton espace personnel et elle rejoindra chaque nouveau chat.',
        ],
      },
      {
        heading: 'Puis-je modifier ce que j’ai écrit ?',
        paragraphs: [
          'Oui. Chaque message a des boutons pour le modifier et le supprimer, et la dernière réponse peut être régénérée.',
        ],
      },
      {
        heading: 'Dans quelle langue les mates répondent-ils ?',
        paragraphs: [
          'Dans la langue que tu choisis dans l’en-tête ou dans ton profil ; toute l’app change avec elle.',
        ],
      },
      {
        heading: 'Comment supprimer mon compte ?',
        paragraphs: [
          'Dans ton profil, « Supprimer mon compte… » montre ce qui part, demande ton mot de passe (ou une nouvelle connexion avec Google ou Discord) et le supprime aussitôt. Télécharge d’abord tes données au même endroit si tu veux les garder.',
        ],
      },
    ],
  },
};
