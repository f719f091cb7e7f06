import { env } from "@/env";
import { shopIdentity } from "@/lib/shop";

/** The shop's profile on the marketplace it also sells through; its social profile for search engines. */
const SOCIAL_PROFILES = ["https://www.ebay.com/str/balanceandcrown"];

/**
 * Structured business data (SPEC section 1): the shop as an OnlineStore with its 988x504 logo, a support contact
 * that answers in Dutch, English and Spanish, and its social profile.
 */
export function OrganizationJsonLd({ shopUrl: base }: { shopUrl: string }) {
  const data = {
    "@context": "https://schema.org",
    "@type": "OnlineStore",
    name: env.SHOP_NAME,
    slogan: shopIdentity.strapLine,
    description: shopIdentity.description,
    url: `${base}/`,
    foundingDate: "2004",
    logo: { "@type": "ImageObject", url: `${base}/logo.png`, width: 988, height: 504 },
    sameAs: SOCIAL_PROFILES,
    contactPoint: [
      {
        "@type": "ContactPoint",
        contactType: "customer support",
        email: `support@${new URL(base).hostname}`,
        availableLanguage: ["Dutch", "English", "Spanish"],
      },
    ],
  };
  return <script type="application/ld+json" dangerouslySetInnerHTML={{ __html: JSON.stringify(data).replace(/</g, "\\u003c") }} />;
}
