# bash completion for spart's commands (spart-id, spart-fd, spart-gim, spart-jac, spart-kin,
# spart-cmp, urdf2robot, dh2robot).  The options come from each command's --help, so that
# they are always those of the installed command.

_spart() {
  local cur prev words cword
  cur=${COMP_WORDS[COMP_CWORD]}
  prev=${COMP_CWORD:+${COMP_WORDS[COMP_CWORD-1]}}
  case $prev in
    -m | --model)
      # models: URDF, model JSON, DH descriptions
      COMPREPLY=($(compgen -f -X '!*.@(urdf|json|URDF|JSON)' -- "$cur") $(compgen -d -- "$cur"))
      return
      ;;
    -i | --input | -o | --output)
      if [[ $1 == urdf2robot || $1 == dh2robot ]] && [[ $prev == -o || $prev == --output ]]; then
        COMPREPLY=($(compgen -W 'json summary dot' -- "$cur"))
      else
        COMPREPLY=($(compgen -W 'json csv' -- "$cur"))
      fi
      return
      ;;
    --view)
      COMPREPLY=($(compgen -W 'front side top iso' -- "$cur"))
      return
      ;;
    --package-path)
      COMPREPLY=($(compgen -d -- "$cur"))
      return
      ;;
    --only | --gravity | --point | --link | -l | --atol | --rtol | -f | --fields | -n | --max | --density)
      return # a value of the user's own
      ;;
  esac
  if [[ $cur == -* ]]; then
    local opts
    opts=$("$1" --help 2> /dev/null | grep -o -- '--[a-z][a-z-]*' | sort -u)
    COMPREPLY=($(compgen -W "$opts" -- "$cur"))
    return
  fi
  COMPREPLY=($(compgen -f -- "$cur"))
}

shopt -s extglob
complete -o filenames -F _spart spart-id spart-fd spart-gim spart-jac spart-kin spart-cmp \
  spart-contact spart-sim spart-draw urdf2robot dh2robot
