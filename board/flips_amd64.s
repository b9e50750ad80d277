#include "textflag.h"

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

	// Higher rays: the lowest square that is not o's; flips below it when it is p's.
	VPANDN Y2, Y1, Y7            // ~o & ray
	VPSUBQ Y7, Y4, Y8
	VPAND Y8, Y7, Y7             // its lowest bit
	VPAND Y0, Y7, Y7             // b: kept when it is p's
	VPCMPEQQ Y4, Y7, Y8          // all ones where b = 0
	VPSUBQ Y7, Y8, Y8            // -b, or all ones where b = 0
	VPANDN Y2, Y8, Y8            // the squares below b (none where b = 0)
	VPOR Y8, Y6, Y6

	VEXTRACTI128 $1, Y6, X7
	VPOR X7, X6, X6
	VPSHUFD $0x4e, X6, X7
	VPOR X7, X6, X6
	VMOVQ X6, AX
	VZEROUPPER
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
