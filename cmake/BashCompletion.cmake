# Writes the bash completion of histoscope-cli from its own help (cmake -P, at build time):
#
#     cmake -DPROGRAM=<histoscope-cli> -DOUTPUT=<completion file> -P BashCompletion.cmake
#
# The commands are the lines of the overview that name them ("  NAME ARGS"), each command's options the
# "--name" and "--name <VALUE>" of its --help, so a new command or option completes without an edit here.
# After an option that takes a value the completion offers files, as most values are paths.
get_filename_component(program_name ${PROGRAM} NAME)
execute_process(COMMAND ${PROGRAM} --help OUTPUT_VARIABLE overview RESULT_VARIABLE result)
if(NOT result EQUAL 0)
    message(FATAL_ERROR "${program_name} --help failed: ${result}")
endif()
string(REGEX MATCHALL "\n  [a-z][a-z0-9-]*" commands "${overview}")
list(TRANSFORM commands STRIP)

set(cases "")
foreach(command IN LISTS commands)
    execute_process(COMMAND ${PROGRAM} ${command} --help OUTPUT_VARIABLE help RESULT_VARIABLE result)
    if(NOT result EQUAL 0)
        message(FATAL_ERROR "${program_name} ${command} --help failed: ${result}")
    endif()
    # Qt lays out an option as "  -h, --help", "  -k <K>" or "  --bins <N>", its description beside it or
    # below.
    string(REGEX MATCHALL "\n  (-[a-zA-Z], --[a-z0-9-]+|--?[a-zA-Z0-9][a-z0-9-]*)( <[^>]+>)?" lines "${help}")
    set(flags "")
    set(valued "")
    foreach(line IN LISTS lines)
        string(REGEX REPLACE " <.*" "" names "${line}")
        string(REGEX MATCHALL "--?[a-zA-Z0-9][a-z0-9-]*" names "${names}")
        list(APPEND flags ${names})
        if(line MATCHES "<")
            list(APPEND valued ${names})
        endif()
    endforeach()
    list(JOIN flags " " flags)
    list(JOIN valued " " valued)
    string(APPEND cases "        ${command}) options=\"${flags}\" valued=\"${valued}\" ;;\n")
endforeach()
list(JOIN commands " " command_list)

file(WRITE ${OUTPUT} "# bash completion for histoscope-cli, generated from its --help by cmake/BashCompletion.cmake
_histoscope_cli() {
    local current=\${COMP_WORDS[COMP_CWORD]}
    local previous=\${COMP_WORDS[COMP_CWORD - 1]}
    if [ \"\$COMP_CWORD\" -eq 1 ]; then
        mapfile -t COMPREPLY < <(compgen -W \"${command_list} --help --version\" -- \"\$current\")
        return
    fi
    local options=\"\" valued=\"\"
    case \${COMP_WORDS[1]} in
${cases}        *) return ;;
    esac
    local option
    for option in \$valued; do
        if [ \"\$previous\" = \"\$option\" ]; then
            mapfile -t COMPREPLY < <(compgen -f -- \"\$current\")
            return
        fi
    done
    if [[ \$current == -* ]]; then
        mapfile -t COMPREPLY < <(compgen -W \"\$options\" -- \"\$current\")
    else
        mapfile -t COMPREPLY < <(compgen -f -- \"\$current\")
    fi
}
complete -o filenames -o bashdefault -F _histoscope_cli histoscope-cli
")
