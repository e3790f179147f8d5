/* The kernel's one product, deposit = remaining_deposit * deposit_ratio, as
 * the offload kernels compute it (kernels/update_part.h's
 * CLOMP_DEPOSIT_PRODUCT; included by the offload kernels before that header).
 *
 * Why: PTX's mul.f64 and add/sub.f64 without a rounding modifier may be
 * fused into one fma by ptxas, which the CUDA driver runs on the PTX when
 * the program loads it (PTX ISA, "Floating-Point Instructions: mul"), what
 * ever -ffp-contract=off told gcc; gcc 12's nvptx back end writes mul.f64 so.
 * The kernel's `remaining_deposit -= deposit` is such a pair: on an NVIDIA
 * H200 (2026-11-26) Offload OMP's zones came out 1 to 2 units in the last
 * place off Serial Ref's and failed verification. fma(a, b, -0.0) is the
 * product rounded once, a * b's value for every input in the default
 * rounding mode, the one clomp runs in (adding -0.0 changes no result, not
 * even a zero's sign; checked over 2e7 pairs with subnormals, infinities,
 * zeros and overflow), and gcc writes it fma.rn.f64, an explicitly rounded
 * instruction that ptxas never fuses. The __NVPTX__ (clang) branch is not
 * built here: whether clang keeps the fma is unchecked.
 *
 * gcc preprocesses an offload build once, for the host and the device
 * together, so the choice is by build (CLOMP_OFFLOAD_NVPTX) rather than by
 * the device compiler's macros; clang preprocesses per target (__NVPTX__).
 * In an nvptx build the host fallback, refused by OMP_TARGET_OFFLOAD=mandatory,
 * would call libm's fma: correct, and never timed. The host plugin and
 * amdgcn keep the plain product (neither assembler fuses). */
#ifndef CLOMP_DEVICE_PRODUCT_H
#define CLOMP_DEVICE_PRODUCT_H

#if defined(CLOMP_OFFLOAD_NVPTX) || defined(__NVPTX__)
#include <math.h>
#define CLOMP_DEPOSIT_PRODUCT(a, b) fma((a), (b), -0.0)
#endif

#endif
