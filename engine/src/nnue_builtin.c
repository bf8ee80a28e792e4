/*
 * The built-in network: the bytes of the network file named by CHESS_NNUE_FILE (set by
 * engine/CMakeLists.txt to the file in engine/nets/) placed in read-only data under the name
 * chess_nnue_builtin_net, which nnue.c declares as a struct chess_nnue (the file's layout). The
 * assembler stops the build when the file's size is not that struct's (NNUE_FILE_SIZE, which
 * nnue.c checks against the struct).
 */
#include "nnue.h"

#ifndef CHESS_NNUE_FILE
#error "CHESS_NNUE_FILE must name the built-in network file"
#endif

#define NNUE_STR2(x) #x
#define NNUE_STR(x)  NNUE_STR2(x)

/* clang-format off */
__asm__(".section .rodata\n"
        ".balign 64\n"
        ".globl chess_nnue_builtin_net\n"
        ".type chess_nnue_builtin_net, @object\n"
        "chess_nnue_builtin_net:\n"
        ".incbin \"" CHESS_NNUE_FILE "\"\n"
        "chess_nnue_builtin_end:\n"
        ".size chess_nnue_builtin_net, chess_nnue_builtin_end - chess_nnue_builtin_net\n"
        ".if chess_nnue_builtin_end - chess_nnue_builtin_net - " NNUE_STR(NNUE_FILE_SIZE) "\n"
        ".error \"the built-in network file does not have this build's network shape\"\n"
        ".endif\n"
        ".previous\n");
/* clang-format on */
