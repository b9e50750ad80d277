#include "textflag.h"

// HIGHER_RAYS_TO_AX ends both flips: with p in Y0, o in Y1, the rays towards higher squares
// in Y2, zero in Y4 and the lower rays' flips in Y6, it adds the higher rays' flips (the
// lowest square of a ray that is not o's, x & -x; flips below it when it is p's) and folds
// the four lanes into AX.
#define HIGHER_RAYS_TO_AX \
	VPANDN Y2, Y1, Y7; \
	VPSUBQ Y7, Y4, Y8; \
	VPAND Y8, Y7, Y7; \
	VPAND Y0, Y7, Y7; \
	VPCMPEQQ Y4, Y7, Y8; \
	VPSUBQ Y7, Y8, Y8; \
	VPANDN Y2, Y8, Y8; \
	VPOR Y8, Y6, Y6; \
	VEXTRACTI128 $1, Y6, X7; \
	VPOR X7, X6, X6; \
	VPSHUFD $0x4e, X6, X7; \
	VPOR X7, X6, X6; \
	VMOVQ X6, AX; \
	VZEROUPPER

DATA flipHighBit<>+0(SB)/8, $0x8000000000000000
GLOBL flipHighBit<>(SB), RODATA|NOPTR, $8

// func flipsAVX512(p, o uint64, sq Square) uint64
TEXT ·flipsAVX512(SB), NOSPLIT, $0-32
	MOVQ p+0(FP), AX
	MOVQ o+8(FP), BX
	MOVBQZX sq+16(FP), CX
	ANDQ $63, CX
	SHLQ $6, CX
	LEAQ ·flipRays(SB), DX
	ADDQ CX, DX
	VMOVQ AX, X0
	VPBROADCASTQ X0, Y0          // p
	VMOVQ BX, X1
	VPBROADCASTQ X1, Y1          // o
	VMOVDQU 0(DX), Y2            // rays towards higher squares
	VMOVDQU 32(DX), Y3           // rays towards lower squares
	VPXOR Y4, Y4, Y4             // zero

	// Lower rays: the highest square that is not o's; flips above it when it is p's.
	VPANDN Y3, Y1, Y5            // ~o & ray
	VPLZCNTQ Y5, Y5
	VPBROADCASTQ flipHighBit<>(SB), Y6
	VPSRLVQ Y5, Y6, Y6           // that square's bit (0 past the end)
	VPAND Y0, Y6, Y6             // b: kept when it is p's
	VPADDQ Y6, Y6, Y6
	VPSUBQ Y6, Y4, Y6            // the squares above b
	VPAND Y3, Y6, Y6             // flips along the lower rays

	HIGHER_RAYS_TO_AX
	MOVQ AX, ret+24(FP)
	RET

// Lanes of the lower rays (-1, -8, -7, -9): one step, two and four, to spread the mover's
// discs down a ray.
DATA flipShift1<>+0(SB)/8, $1
DATA flipShift1<>+8(SB)/8, $8
DATA flipShift1<>+16(SB)/8, $7
DATA flipShift1<>+24(SB)/8, $9
GLOBL flipShift1<>(SB), RODATA|NOPTR, $32
DATA flipShift2<>+0(SB)/8, $2
DATA flipShift2<>+8(SB)/8, $16
DATA flipShift2<>+16(SB)/8, $14
DATA flipShift2<>+24(SB)/8, $18
GLOBL flipShift2<>(SB), RODATA|NOPTR, $32
DATA flipShift4<>+0(SB)/8, $4
DATA flipShift4<>+8(SB)/8, $32
DATA flipShift4<>+16(SB)/8, $28
DATA flipShift4<>+24(SB)/8, $36
GLOBL flipShift4<>(SB), RODATA|NOPTR, $32

// func flipsAVX2(p, o uint64, sq Square) uint64
TEXT ·flipsAVX2(SB), NOSPLIT, $0-32
	MOVBQZX sq+16(FP), CX
	ANDQ $63, CX
	SHLQ $6, CX
	LEAQ ·flipRays(SB), DX
	ADDQ CX, DX
	VPBROADCASTQ p+0(FP), Y0     // p
	VPBROADCASTQ o+8(FP), Y1     // o
	VMOVDQU 0(DX), Y2            // rays towards higher squares
	VMOVDQU 32(DX), Y3           // rays towards lower squares
	VPXOR Y4, Y4, Y4             // zero

	VPAND Y0, Y3, Y5             // p's discs on the lower rays
	VPSRLVQ flipShift1<>(SB), Y5, Y6
	VPOR Y5, Y6, Y6
	VPSRLVQ flipShift2<>(SB), Y6, Y7
	VPOR Y7, Y6, Y6
	VPSRLVQ flipShift4<>(SB), Y6, Y7
	VPOR Y7, Y6, Y6              // the ray at and below its highest p
	VPANDN Y3, Y1, Y7            // not o's
	VPXOR Y5, Y7, Y7             // empty
	VPCMPGTQ Y7, Y5, Y8          // the highest p above the highest empty square
	VPANDN Y3, Y6, Y6            // the squares between the move and that p
	VPAND Y8, Y6, Y6             // flips along the lower rays

	HIGHER_RAYS_TO_AX
	MOVQ AX, ret+24(FP)
	RET

// func cpuHasAVX512() bool: the processor has AVX-512 F, CD and VL, and the operating system
// saves their state (XGETBV XCR0 bits 1-2 and 5-7).
TEXT ·cpuHasAVX512(SB), NOSPLIT, $0-1
	MOVB $0, ret+0(FP)
	XORL AX, AX
	CPUID
	CMPL AX, $7
	JLT no
	MOVL $1, AX
	XORL CX, CX
	CPUID
	ANDL $0x08000000, CX // OSXSAVE
	JEQ no
	XORL CX, CX
	XGETBV
	ANDL $0xe6, AX
	CMPL AX, $0xe6
	JNE no
	MOVL $7, AX
	XORL CX, CX
	CPUID
	ANDL $0x90010000, BX // AVX512F (16), AVX512CD (28), AVX512VL (31)
	CMPL BX, $0x90010000
	JNE no
	MOVB $1, ret+0(FP)
no:
	RET

// func flipsBest(p, o uint64, sq Square) uint64: the best flips of the processor, chosen by
// the flags set at start-up and reached by a jump, so that Flips, one call, is inlined.
TEXT ·flipsBest(SB), NOSPLIT, $0-32
	CMPB ·hasAVX512(SB), $0
	JEQ noavx512
	JMP ·flipsAVX512(SB)
noavx512:
	CMPB ·hasAVX2(SB), $0
	JEQ noavx2
	JMP ·flipsAVX2(SB)
noavx2:
	JMP ·flipsGo(SB)
