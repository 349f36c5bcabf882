/**
 * Delivery answered from a tenant's data (`delivery_areas`, `businesses.pickup_only`): the front
 * desk and the ordering steps answer "do you deliver to Remera?" with it.
 *
 * @module
 */
export {
  DELIVERY_TABLES,
  type DeliveryAnswer,
  deliveryAnswer,
  type DeliveryAnswerOptions,
  type DeliveryPlace,
  type DeliveryReadOptions,
  readDeliveryPlaces,
} from "./delivery_answer.ts";
