import "server-only";
import { customerAdminRouter } from "@/server/account/customer-admin-router";
import { customerSearchRouter } from "@/server/account/customer-search-router";
import { accountRouter } from "@/server/account/router";
import { secondFactorRouter } from "@/server/auth/second-factor-router";
import { dashboardRouter, integrationsRouter, sidebarRouter } from "@/server/admin/router";
import { cartRouter } from "@/server/cart/router";
import { discountAdminRouter } from "@/server/discounts/admin-router";
import { checkoutRouter } from "@/server/checkout/router";
import { adminProductRouter, adminTemplateRouter } from "@/server/catalog/admin-router";
import { productRouter } from "@/server/catalog/router";
import { fulfilmentRouter } from "@/server/fulfilment/admin-router";
import { jobsRouter } from "@/server/jobs/admin-router";
import { logbookRouter } from "@/server/logbook/router";
import { mapsRouter } from "@/server/maps/router";
import { marginsRouter } from "@/server/margins/router";
import { ebayRouter } from "@/server/marketplace/router";
import { navbarRouter } from "@/server/navbar/router";
import { notificationRouter } from "@/server/notifications/router";
import { orderAdminRouter } from "@/server/orders/admin-router";
import { customerOrderRouter } from "@/server/orders/customer-router";
import { manualOrderRouter } from "@/server/orders/manual-order-router";
import { shippingCalendarRouter } from "@/server/orders/shipping-calendar-router";
import { pricingRouter } from "@/server/pricing/router";
import { refundAdminRouter } from "@/server/refunds/admin-router";
import { reportsRouter } from "@/server/reports/router";
import { shippingCostsRouter } from "@/server/shipping/costs-router";
import { boxRouter, restockRouter, stockRouter } from "@/server/stock/router";
import { bucketRouter } from "@/server/storage/router";
import { tokenRouter } from "@/server/token/router";
import { createCallerFactory, createTRPCRouter, mergeTRPCRouters } from "@/server/trpc";

/** The router tree; its paths are SPEC section 7's (`shared.product.getMany`, `shared.cart.get`, `admin.*`). */
export const appRouter = createTRPCRouter({
  shared: createTRPCRouter({
    product: productRouter,
    navbar: navbarRouter,
    cart: cartRouter,
    pricing: pricingRouter,
    token: tokenRouter,
    maps: mapsRouter,
    account: mergeTRPCRouters(accountRouter, customerOrderRouter),
    checkout: checkoutRouter,
    secondFactor: secondFactorRouter,
  }),
  // Every procedure under admin is an adminProcedure; tests/integration/admin-access.test.ts walks them all.
  admin: createTRPCRouter({
    sidebar: sidebarRouter,
    dashboard: dashboardRouter,
    ebay: ebayRouter,
    product: adminProductRouter,
    template: adminTemplateRouter,
    restock: restockRouter,
    box: boxRouter,
    stock: stockRouter,
    bucket: bucketRouter,
    logbook: logbookRouter,
    notification: notificationRouter,
    orders: orderAdminRouter,
    customers: customerAdminRouter,
    fulfilment: fulfilmentRouter,
    manualOrder: mergeTRPCRouters(manualOrderRouter, customerSearchRouter),
    shippingCalendar: shippingCalendarRouter,
    jobs: jobsRouter,
    refunds: refundAdminRouter,
    discounts: mergeTRPCRouters(discountAdminRouter, customerSearchRouter),
    shippingCosts: shippingCostsRouter,
    margins: marginsRouter,
    reports: reportsRouter,
    integrations: integrationsRouter,
  }),
});

export type AppRouter = typeof appRouter;

export const createCaller = createCallerFactory(appRouter);
