import type { Vbench2Dimension } from "../dimension";
import type { JudgedDimension } from "../vbench2-dimensions";
import { complexLandscape } from "./complex-landscape";
import { complexPlot } from "./complex-plot";
import { composition } from "./composition";
import { dynamicAttribute } from "./dynamic-attribute";
import { dynamicSpatialRelationship } from "./dynamic-spatial-relationship";
import { humanClothes } from "./human-clothes";
import { humanInteraction } from "./human-interaction";
import { material } from "./material";
import { mechanics } from "./mechanics";
import { motionOrderUnderstanding } from "./motion-order-understanding";
import { motionRationality } from "./motion-rationality";
import { thermotics } from "./thermotics";

/** VBench-2.0's twelve judged dimensions, one file each. */
export const DIMENSIONS: Readonly<Record<JudgedDimension, Vbench2Dimension>> = {
  Complex_Landscape: complexLandscape,
  Complex_Plot: complexPlot,
  Composition: composition,
  Dynamic_Attribute: dynamicAttribute,
  Dynamic_Spatial_Relationship: dynamicSpatialRelationship,
  Human_Clothes: humanClothes,
  Human_Interaction: humanInteraction,
  Material: material,
  Mechanics: mechanics,
  Motion_Order_Understanding: motionOrderUnderstanding,
  Motion_Rationality: motionRationality,
  Thermotics: thermotics,
};
