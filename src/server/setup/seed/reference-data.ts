import type { DiscountType, PricingType } from "@/lib/enums";

/**
 * The demo shop's settings: where it ships and for how much, its surcharge bands, its discounts. Figures are in
 * euro and chosen as a small Dutch web shop sending watch parts by post would set them.
 */

/** The rate the demo books purchases at; purchase costs in peso are euro times this. */
export const DEMO_EUR_TO_PHP = "61.25";

export type CountrySeed = {
  code: string;
  name: string;
  phoneCode: string;
  untrackedCost: string;
  tntCost: string;
  untrackedEtaDays: number;
  tntEtaDays: number;
  maxOrderUntracked: string;
  eu: boolean;
  active: boolean;
};

const country = (
  code: string, name: string, phoneCode: string, untrackedCost: string, tntCost: string, untrackedEtaDays: number, tntEtaDays: number,
  maxOrderUntracked: string, eu: boolean, active = true,
): CountrySeed => ({ code, name, phoneCode, untrackedCost, tntCost, untrackedEtaDays, tntEtaDays, maxOrderUntracked, eu, active });

// Parcels leave from the Netherlands: cheapest and fastest at home, then the EU, then the rest of the world.
// Untracked letters stop at the insured value the post covers; dearer orders must go tracked (TNT).
export const countries: CountrySeed[] = [
  country("NL", "Netherlands", "+31", "4.50", "8.95", 2, 1, "100.00", true),
  country("BE", "Belgium", "+32", "6.50", "12.95", 3, 2, "100.00", true),
  country("DE", "Germany", "+49", "6.50", "12.95", 3, 2, "100.00", true),
  country("LU", "Luxembourg", "+352", "6.50", "12.95", 3, 2, "100.00", true),
  country("FR", "France", "+33", "6.50", "14.95", 4, 3, "100.00", true),
  country("AT", "Austria", "+43", "6.50", "14.95", 4, 3, "100.00", true),
  country("DK", "Denmark", "+45", "6.50", "14.95", 4, 3, "100.00", true),
  country("ES", "Spain", "+34", "6.50", "16.95", 6, 4, "75.00", true),
  country("IT", "Italy", "+39", "6.50", "16.95", 7, 4, "75.00", true),
  country("PT", "Portugal", "+351", "6.50", "16.95", 7, 4, "75.00", true),
  country("IE", "Ireland", "+353", "6.50", "16.95", 5, 3, "75.00", true),
  country("SE", "Sweden", "+46", "6.50", "16.95", 5, 3, "100.00", true),
  country("FI", "Finland", "+358", "6.50", "16.95", 6, 4, "100.00", true),
  country("PL", "Poland", "+48", "6.50", "16.95", 6, 4, "75.00", true),
  country("CZ", "Czechia", "+420", "6.50", "16.95", 6, 4, "75.00", true),
  country("GR", "Greece", "+30", "6.50", "18.95", 9, 5, "50.00", true),
  country("GB", "United Kingdom", "+44", "7.50", "19.95", 5, 3, "50.00", false),
  country("CH", "Switzerland", "+41", "7.50", "24.95", 5, 3, "50.00", false),
  country("NO", "Norway", "+47", "7.50", "24.95", 6, 4, "50.00", false),
  country("US", "United States", "+1", "9.50", "34.95", 10, 5, "50.00", false),
  country("CA", "Canada", "+1", "9.50", "39.95", 12, 6, "50.00", false),
  country("AU", "Australia", "+61", "10.50", "44.95", 14, 7, "50.00", false),
  country("NZ", "New Zealand", "+64", "10.50", "44.95", 16, 8, "50.00", false),
  country("JP", "Japan", "+81", "9.50", "34.95", 10, 5, "50.00", false),
  country("SG", "Singapore", "+65", "9.50", "34.95", 10, 5, "50.00", false),
  country("HK", "Hong Kong", "+852", "9.50", "34.95", 10, 5, "50.00", false),
  country("PH", "Philippines", "+63", "9.50", "34.95", 14, 7, "50.00", false),
  // Listed so that addresses show a proper name, but not shipped to: parcels went missing in customs.
  country("BR", "Brazil", "+55", "12.50", "49.95", 25, 10, "25.00", false, false),
  country("RU", "Russia", "+7", "12.50", "49.95", 25, 10, "25.00", false, false),
];

export type RegionSeed = { countryCode: string; code: string; name: string; active: boolean; maxOrderUntracked: string | null };

const usStates: [string, string][] = [
  ["AL", "Alabama"], ["AK", "Alaska"], ["AZ", "Arizona"], ["AR", "Arkansas"], ["CA", "California"], ["CO", "Colorado"],
  ["CT", "Connecticut"], ["DE", "Delaware"], ["DC", "District of Columbia"], ["FL", "Florida"], ["GA", "Georgia"],
  ["HI", "Hawaii"], ["ID", "Idaho"], ["IL", "Illinois"], ["IN", "Indiana"], ["IA", "Iowa"], ["KS", "Kansas"],
  ["KY", "Kentucky"], ["LA", "Louisiana"], ["ME", "Maine"], ["MD", "Maryland"], ["MA", "Massachusetts"],
  ["MI", "Michigan"], ["MN", "Minnesota"], ["MS", "Mississippi"], ["MO", "Missouri"], ["MT", "Montana"],
  ["NE", "Nebraska"], ["NV", "Nevada"], ["NH", "New Hampshire"], ["NJ", "New Jersey"], ["NM", "New Mexico"],
  ["NY", "New York"], ["NC", "North Carolina"], ["ND", "North Dakota"], ["OH", "Ohio"], ["OK", "Oklahoma"],
  ["OR", "Oregon"], ["PA", "Pennsylvania"], ["RI", "Rhode Island"], ["SC", "South Carolina"], ["SD", "South Dakota"],
  ["TN", "Tennessee"], ["TX", "Texas"], ["UT", "Utah"], ["VT", "Vermont"], ["VA", "Virginia"], ["WA", "Washington"],
  ["WV", "West Virginia"], ["WI", "Wisconsin"], ["WY", "Wyoming"], ["PR", "Puerto Rico"], ["GU", "Guam"],
];

const canadianProvinces: [string, string][] = [
  ["AB", "Alberta"], ["BC", "British Columbia"], ["MB", "Manitoba"], ["NB", "New Brunswick"],
  ["NL", "Newfoundland and Labrador"], ["NS", "Nova Scotia"], ["NT", "Northwest Territories"], ["NU", "Nunavut"],
  ["ON", "Ontario"], ["PE", "Prince Edward Island"], ["QC", "Quebec"], ["SK", "Saskatchewan"], ["YT", "Yukon"],
];

const australianStates: [string, string][] = [
  ["ACT", "Australian Capital Territory"], ["NSW", "New South Wales"], ["NT", "Northern Territory"], ["QLD", "Queensland"],
  ["SA", "South Australia"], ["TAS", "Tasmania"], ["VIC", "Victoria"], ["WA", "Western Australia"],
];

// Remote regions take longer and lose more letters, so they have a lower untracked limit; the overseas
// territories are not served at all.
const remote = new Set(["US:AK", "US:HI", "CA:NT", "CA:NU", "CA:YT", "AU:NT"]);
const inactive = new Set(["US:PR", "US:GU"]);

export const regions: RegionSeed[] = [
  ...usStates.map(([code, name]) => ({ countryCode: "US", code, name })),
  ...canadianProvinces.map(([code, name]) => ({ countryCode: "CA", code, name })),
  ...australianStates.map(([code, name]) => ({ countryCode: "AU", code, name })),
].map((region) => {
  const key = `${region.countryCode}:${region.code}`;
  return { ...region, active: !inactive.has(key), maxOrderUntracked: remote.has(key) ? "25.00" : null };
});

/** Order-value bands and the insurance surcharge on shipping, as fractions. */
export const surchargeBands = [
  { minPrice: "0.00", maxPrice: "100.00", percentage: "0" },
  { minPrice: "100.00", maxPrice: "250.00", percentage: "0.02" },
  { minPrice: "250.00", maxPrice: "500.00", percentage: "0.035" },
  { minPrice: "500.00", maxPrice: "999999.99", percentage: "0.05" },
];

/** Parcels go to the post office on Mondays, Wednesdays and Fridays. */
export function shippingDays(from: Date, weeks: number): string[] {
  const days: string[] = [];
  const start = new Date(from.getFullYear(), from.getMonth(), from.getDate());
  for (let offset = 0; offset < weeks * 7; offset++) {
    const day = new Date(start.getFullYear(), start.getMonth(), start.getDate() + offset);
    if ([1, 3, 5].includes(day.getDay())) days.push(localDate(day));
  }
  return days;
}

export function localDate(day: Date): string {
  return `${day.getFullYear()}-${String(day.getMonth() + 1).padStart(2, "0")}-${String(day.getDate()).padStart(2, "0")}`;
}

export type DiscountSeed = {
  key: string;
  name: string;
  discountType: DiscountType;
  pricingType: PricingType;
  value: string;
  active: boolean;
  /** Days from now; negative is in the past, null is open-ended. */
  startsInDays: number | null;
  expiresInDays: number | null;
};

// PERCENT values are fractions (0.15 is 15 %), FIXED values euros. Each type has a live discount and ones that
// must not apply (expired, not started, switched off), so the rules that skip them can be seen working.
export const discounts: DiscountSeed[] = [
  { key: "product-percent", name: "Spring clear-out 15%", discountType: "PRODUCT", pricingType: "PERCENT", value: "0.15", active: true, startsInDays: -20, expiresInDays: 40 },
  { key: "product-fixed", name: "€5 off selected parts", discountType: "PRODUCT", pricingType: "FIXED", value: "5.00", active: true, startsInDays: -10, expiresInDays: null },
  { key: "product-expired", name: "Winter sale 20%", discountType: "PRODUCT", pricingType: "PERCENT", value: "0.20", active: true, startsInDays: -120, expiresInDays: -60 },
  { key: "product-future", name: "Black Friday 25%", discountType: "PRODUCT", pricingType: "PERCENT", value: "0.25", active: true, startsInDays: 30, expiresInDays: 34 },
  { key: "product-inactive", name: "Old stock 30% (paused)", discountType: "PRODUCT", pricingType: "PERCENT", value: "0.30", active: false, startsInDays: null, expiresInDays: null },
  { key: "global-future", name: "Shop anniversary 10%", discountType: "GLOBAL", pricingType: "PERCENT", value: "0.10", active: true, startsInDays: 45, expiresInDays: 52 },
  { key: "global-expired", name: "Summer weekend 5%", discountType: "GLOBAL", pricingType: "PERCENT", value: "0.05", active: true, startsInDays: -90, expiresInDays: -87 },
  { key: "global-inactive", name: "Collectors' fair €10 off", discountType: "GLOBAL", pricingType: "FIXED", value: "10.00", active: false, startsInDays: null, expiresInDays: null },
  { key: "user-loyal", name: "Loyal collector 10%", discountType: "USER", pricingType: "PERCENT", value: "0.10", active: true, startsInDays: -365, expiresInDays: null },
  { key: "user-watchmaker", name: "Watchmaker trade €20", discountType: "USER", pricingType: "FIXED", value: "20.00", active: true, startsInDays: null, expiresInDays: null },
  { key: "user-expired", name: "Welcome back 15%", discountType: "USER", pricingType: "PERCENT", value: "0.15", active: true, startsInDays: -200, expiresInDays: -100 },
  { key: "coupon-welcome", name: "WELCOME10", discountType: "COUPON", pricingType: "PERCENT", value: "0.10", active: true, startsInDays: null, expiresInDays: null },
  { key: "coupon-fixed", name: "CROWN5", discountType: "COUPON", pricingType: "FIXED", value: "5.00", active: true, startsInDays: -30, expiresInDays: 60 },
  { key: "coupon-expired", name: "SUMMER24", discountType: "COUPON", pricingType: "PERCENT", value: "0.15", active: true, startsInDays: -400, expiresInDays: -300 },
  { key: "coupon-future", name: "XMAS20", discountType: "COUPON", pricingType: "PERCENT", value: "0.20", active: true, startsInDays: 60, expiresInDays: 90 },
  { key: "coupon-inactive", name: "FAIR2023", discountType: "COUPON", pricingType: "FIXED", value: "7.50", active: false, startsInDays: null, expiresInDays: null },
];

export const demoUsers = {
  admin: { name: "Shop Admin", email: "admin@example.com" },
  /** Staff who have not signed in yet: their first sign-in sets up their second factor. */
  newStaff: { name: "Sam Stockroom", email: "staff@example.com" },
  customer: { name: "Clara Collector", email: "customer@example.com" },
} as const;

export const customerAddresses = [
  {
    firstName: "Clara", lastName: "Collector", companyName: null, street: "Keizersgracht", houseNumber: "123",
    addressLine2: null, postCode: "1015 CJ", city: "Amsterdam", country: "Netherlands", countryCode: "NL",
    stateCode: null, state: null, phoneNumber: "+31 20 123 4567", email: "customer@example.com",
  },
  {
    firstName: "Clara", lastName: "Collector", companyName: "Collector Horology LLC", street: "West 47th Street",
    houseNumber: "62", addressLine2: "Suite 1405", postCode: "10036", city: "New York", country: "United States",
    countryCode: "US", stateCode: "NY", state: "New York", phoneNumber: "+1 212 555 0147", email: "customer@example.com",
  },
];
