import type { CheckoutPaymentMethod } from "@/server/checkout/schemas";

/**
 * Who buys from the demo shop and where they live: the names, streets and payment habits the demo orders
 * (`order-plan.ts`) and the benchmark's order history (`order-history.ts`) draw from. Every e-mail address is on a
 * domain reserved for examples, so a demo order can never mail a real person.
 */

export const firstNames = [
  "Anna", "Bram", "Lotte", "Daan", "Sophie", "Lukas", "Emma", "Noah", "Julia", "Finn", "Mila", "Sem", "Lena", "Jonas",
  "Chloé", "Louis", "Olivia", "James", "Charlotte", "Oliver", "Hannah", "Felix", "Marta", "Pietro", "Elena", "Mateo",
  "Ingrid", "Lars", "Yuki", "Haruto", "Grace", "Liam", "Sanne", "Thijs", "Fleur", "Ruben", "Klaus", "Margot", "Henrik",
  "Aiko",
];

export const lastNames = [
  "de Vries", "Jansen", "Bakker", "Visser", "Smit", "Meijer", "van Dijk", "Mulder", "Müller", "Schmidt", "Schneider",
  "Fischer", "Weber", "Hofmann", "Dubois", "Martin", "Lefèvre", "Peeters", "Janssens", "Smith", "Jones", "Taylor",
  "Brown", "Rossi", "Bianchi", "García", "Fernández", "Nilsson", "Andersen", "Tanaka", "Suzuki", "Kowalski", "Novak",
  "Gruber", "Keller", "O'Brien",
];

/** A name as it appears in an e-mail address: lower case letters only. */
export function emailWord(name: string): string {
  return name
    .normalize("NFD")
    .replace(/[^A-Za-z]/g, "")
    .toLowerCase();
}

export type Place = {
  countryCode: string;
  city: string;
  postCode: string;
  street: string;
  /** The state or province, for the countries the shop asks one for. */
  stateCode: string | null;
  state: string | null;
  phoneCode: string;
};

const place = (countryCode: string, phoneCode: string, city: string, postCode: string, street: string, stateCode: string | null = null, state: string | null = null): Place => ({
  countryCode, phoneCode, city, postCode, street, stateCode, state,
});

/** Streets the demo's buyers live on, a few per country the shop sells to most. */
export const places: Place[] = [
  place("NL", "+31", "Amsterdam", "1016 GV", "Prinsengracht"),
  place("NL", "+31", "Utrecht", "3511 AB", "Oudegracht"),
  place("NL", "+31", "Rotterdam", "3012 AN", "Witte de Withstraat"),
  place("NL", "+31", "Den Haag", "2514 JL", "Lange Voorhout"),
  place("NL", "+31", "Eindhoven", "5611 EM", "Stratumseind"),
  place("NL", "+31", "Groningen", "9711 LM", "Herestraat"),
  place("NL", "+31", "Haarlem", "2011 RB", "Grote Houtstraat"),
  place("BE", "+32", "Antwerpen", "2000", "Meir"),
  place("BE", "+32", "Gent", "9000", "Veldstraat"),
  place("BE", "+32", "Brussel", "1000", "Rue Neuve"),
  place("DE", "+49", "Berlin", "10117", "Friedrichstraße"),
  place("DE", "+49", "Hamburg", "20095", "Mönckebergstraße"),
  place("DE", "+49", "München", "80331", "Kaufingerstraße"),
  place("DE", "+49", "Köln", "50667", "Hohe Straße"),
  place("FR", "+33", "Paris", "75003", "Rue de Bretagne"),
  place("FR", "+33", "Lyon", "69002", "Rue de la République"),
  place("GB", "+44", "London", "EC1V 9HX", "Old Street"),
  place("GB", "+44", "Manchester", "M1 1AD", "Market Street"),
  place("US", "+1", "San Francisco", "94103", "Market Street", "CA", "California"),
  place("US", "+1", "Austin", "78701", "Congress Avenue", "TX", "Texas"),
  place("US", "+1", "Chicago", "60611", "North Michigan Avenue", "IL", "Illinois"),
  place("CA", "+1", "Toronto", "M5V 2T6", "King Street West", "ON", "Ontario"),
  place("AU", "+61", "Sydney", "2000", "George Street", "NSW", "New South Wales"),
  place("IT", "+39", "Milano", "20121", "Via Montenapoleone"),
  place("ES", "+34", "Madrid", "28013", "Gran Vía"),
  place("AT", "+43", "Wien", "1010", "Graben"),
  place("CH", "+41", "Zürich", "8001", "Bahnhofstrasse"),
  place("SE", "+46", "Stockholm", "111 52", "Drottninggatan"),
  place("DK", "+45", "København", "1160", "Amagertorv"),
  place("JP", "+81", "Tokyo", "104-0061", "Chuo-dori"),
  place("PL", "+48", "Warszawa", "00-372", "Nowy Świat"),
];

/** How often each country buys, roughly as a Dutch shop's customers spread: home first, then the neighbours. */
export const countryWeights: Record<string, number> = {
  NL: 30, DE: 16, BE: 9, US: 8, FR: 6, GB: 6, IT: 4, ES: 3, AT: 3, CH: 3, SE: 2, DK: 2, CA: 2, AU: 2, JP: 2, PL: 2,
};

/** The ways buyers in a country pay at checkout, each with how often. */
export function paymentHabits(countryCode: string): readonly (readonly [CheckoutPaymentMethod, number])[] {
  switch (countryCode) {
    case "NL":
      return [["IDEAL", 55], ["PAYPAL", 14], ["APPLEPAY", 10], ["CREDITCARD", 10], ["BANKTRANSFER", 6], ["KLARNAPAYNOW", 5]];
    case "BE":
      return [["BANCONTACT", 55], ["KBC", 8], ["BELFIUS", 7], ["PAYPAL", 15], ["CREDITCARD", 15]];
    case "DE":
    case "AT":
      return [["PAYPAL", 40], ["KLARNAPAYNOW", 20], ["CREDITCARD", 20], ["BANKTRANSFER", 10], [countryCode === "AT" ? "EPS" : "APPLEPAY", 10]];
    default:
      return [["CREDITCARD", 50], ["PAYPAL", 38], ["APPLEPAY", 12]];
  }
}
