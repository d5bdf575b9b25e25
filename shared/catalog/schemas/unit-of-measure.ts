import * as z from 'zod/mini';
import { decimalInput } from '../../money';
import { id, metadata, timestamp } from '../../schemas/common';
import { livemode } from '../../schemas/livemode';

export const UOM_FACTOR_SCALE = 8;

export const UnitOfMeasure = z
  .object({
    id: id(),
    object: z.literal('unit_of_measure'),
    livemode: livemode(),
    entity_id: id(),
    name: z.string(),
    abbreviation: z.string().check(z.describe('Unique within the entity (case-insensitive), e.g. `ea`, `kg`, `cs12`.')),
    uom_type: z.string().check(z.describe('The dimension the unit measures (count, weight, length, volume, ...); conversions happen only within a type.')),
    is_base: z.boolean().check(z.describe('The base unit of its type: conversion_factor 1. The first unit created of a type becomes its base.')),
    conversion_factor: z.number().check(z.describe('How many base units of the type one of this unit holds (a case of 12 each: 12).')),
    metadata: z.record(z.string(), z.string()),
    created_at: timestamp(),
    updated_at: timestamp(),
  })
  .register(z.globalRegistry, { id: 'UnitOfMeasure' });
export type UnitOfMeasure = z.infer<typeof UnitOfMeasure>;

export const UnitOfMeasureCreate = z.strictObject({
  name: z.string().check(z.trim(), z.minLength(1), z.maxLength(100)),
  abbreviation: z.string().check(z.trim(), z.minLength(1), z.maxLength(20), z.describe('Unique within the entity (case-insensitive).')),
  uom_type: z
    .string()
    .check(
      z.regex(/^[a-z][a-z0-9_]{0,39}$/, 'must be lower-case letters, digits and underscores, starting with a letter'),
      z.describe('count, weight, length, volume or any other lower-case name.'),
    ),
  conversion_factor: z
    .optional(decimalInput({ scale: UOM_FACTOR_SCALE, min: 0, exclusiveMin: true }))
    .check(z.describe('Base units per one of this unit. Required unless this is the first unit of its type, which becomes the base (factor 1).')),
  metadata: z.optional(metadata()),
});
export type UnitOfMeasureCreate = z.infer<typeof UnitOfMeasureCreate>;

export const UnitOfMeasureUpdate = z.strictObject({
  name: z.optional(z.string().check(z.trim(), z.minLength(1), z.maxLength(100))),
  abbreviation: z.optional(z.string().check(z.trim(), z.minLength(1), z.maxLength(20))),
  conversion_factor: z
    .optional(decimalInput({ scale: UOM_FACTOR_SCALE, min: 0, exclusiveMin: true }))
    .check(z.describe('Not allowed on the base unit of a type (its factor is always 1).')),
  metadata: z.optional(metadata()),
});
export type UnitOfMeasureUpdate = z.infer<typeof UnitOfMeasureUpdate>;
