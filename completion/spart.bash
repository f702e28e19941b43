# bash completion for spart's commands (spart-id, spart-fd, spart-gim, spart-jac, spart-kin,
# spart-sim, spart-cmp, spart-states, spart-codegen, spart-ik, urdf2robot, dh2robot).  The options
# come from each command's --help, so that they are always those of the installed command.

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
    --revolute)
      COMPREPLY=($(compgen -W 'angle sincos' -- "$cur"))
      return
      ;;
    --floating)
      # urdf2robot's kind of floating joints (spart-id's --floating takes no value)
      if [[ $1 == urdf2robot ]]; then
        COMPREPLY=($(compgen -W 'quaternion spquat' -- "$cur"))
        return
      fi
      ;;
    --functions)
      # the first of the list (the rest are the user's to type after a comma)
      COMPREPLY=($(compgen -W 'id mass fd fk jac' -- "$cur"))
      return
      ;;
    --view)
      COMPREPLY=($(compgen -W 'front side top iso' -- "$cur"))
      return
      ;;
    --view-box)
      return # spart-draw's extent: numbers of the user's own
      ;;
    --package-path)
      COMPREPLY=($(compgen -d -- "$cur"))
      return
      ;;
    --stance | --write-stance)
      # stance files (spart-stance(5)): JSON
      COMPREPLY=($(compgen -f -X '!*.@(json|JSON)' -- "$cur") $(compgen -d -- "$cur"))
      return
      ;;
    --only | --gravity | --point | --link | -l | --atol | --rtol | -f | --fields | -n | --max | --prefix | --density | --restarts | --seed | --tolerance | --max-iterations)
      return # a value of the user's own
      ;;
    --duration | --dt | --every | --kp | --kd | --mu | --stiffness | --damping | --slip | --tangential-stiffness | --tangential-damping | --tol-implicit | -j | --jobs)
      return # spart-sim's numbers
      ;;
    --control)
      COMPREPLY=($(compgen -W 'pd ctc gravity' -- "$cur"))
      return
      ;;
    --integrator)
      COMPREPLY=($(compgen -W 'rk4 dopri5 implicit' -- "$cur"))
      return
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
complete -o filenames -F _spart spart-id spart-fd spart-gim spart-jac spart-kin spart-sim \
  spart-cmp spart-contact spart-states spart-codegen spart-draw spart-ik urdf2robot dh2robot
