import { adminProcedure, createTRPCRouter } from "@/server/trpc";
import {
  boxIdInput,
  boxListInput,
  inventoryCorrectionInput,
  productStockInput,
  purchaseRecordIdInput,
  purchaseRecordInput,
  restockDecisionInput,
  restockListInput,
  restockRequestInput,
  shipBoxInput,
  updatePurchaseRecordInput,
} from "./schemas";
import { addPurchaseRecord, createBox, explodeBox, getBox, listBoxes, removePurchaseRecord, shipBox, updatePurchaseRecord } from "./boxes";
import { exchangeRateInfo, exchangeRatePort, refreshExchangeRate } from "./exchange-rate";
import { decideRestock, listRestock, requestRestock, restockCandidates, restockCounts } from "./restock-service";
import { correctInventory, incomingStock, stockHistory } from "./service";

export const boxRouter = createTRPCRouter({
  list: adminProcedure.input(boxListInput).query(({ ctx, input }) => listBoxes(ctx.db, input.statuses)),
  get: adminProcedure.input(boxIdInput).query(({ ctx, input }) => getBox(ctx.db, input.boxId)),
  create: adminProcedure.mutation(({ ctx }) => createBox(ctx.db, ctx.session.user.id)),
  ship: adminProcedure.input(shipBoxInput).mutation(({ ctx, input }) => shipBox(ctx.db, input, ctx.session.user.id)),
  explode: adminProcedure.input(boxIdInput).mutation(({ ctx, input }) => explodeBox(ctx.db, input.boxId, ctx.session.user.id)),
  addPurchaseRecord: adminProcedure
    .input(purchaseRecordInput)
    .mutation(({ ctx, input }) => addPurchaseRecord(ctx.db, input, ctx.session.user.id)),
  updatePurchaseRecord: adminProcedure
    .input(updatePurchaseRecordInput)
    .mutation(({ ctx, input }) => updatePurchaseRecord(ctx.db, input, ctx.session.user.id)),
  removePurchaseRecord: adminProcedure
    .input(purchaseRecordIdInput)
    .mutation(({ ctx, input }) => removePurchaseRecord(ctx.db, input.purchaseRecordId, ctx.session.user.id)),
});

export const stockRouter = createTRPCRouter({
  history: adminProcedure.input(productStockInput).query(({ ctx, input }) => stockHistory(ctx.db, input.productId)),
  incoming: adminProcedure.input(productStockInput).query(({ ctx, input }) => incomingStock(ctx.db, input.productId)),
  correct: adminProcedure.input(inventoryCorrectionInput).mutation(({ ctx, input }) => correctInventory(ctx.db, input, ctx.session.user.id)),
  exchangeRate: adminProcedure.query(({ ctx }) => exchangeRateInfo(ctx.db, exchangeRatePort(ctx.db))),
  refreshExchangeRate: adminProcedure.mutation(({ ctx }) =>
    refreshExchangeRate(ctx.db, exchangeRatePort(ctx.db), ctx.session.user.id),
  ),
});

export const restockRouter = createTRPCRouter({
  list: adminProcedure.input(restockListInput).query(({ ctx, input }) => listRestock(ctx.db, input.status)),
  candidates: adminProcedure.query(({ ctx }) => restockCandidates(ctx.db)),
  counts: adminProcedure.query(({ ctx }) => restockCounts(ctx.db)),
  request: adminProcedure.input(restockRequestInput).mutation(({ ctx, input }) => requestRestock(ctx.db, input.productId, ctx.session.user.id)),
  decide: adminProcedure
    .input(restockDecisionInput)
    .mutation(({ ctx, input }) => decideRestock(ctx.db, input.id, input.status, ctx.session.user.id)),
});
